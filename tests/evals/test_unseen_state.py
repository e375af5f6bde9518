"""A task's verdict never rests on fewer reads than it needs (issue 27, second red team): the per-date reads a run's
calls reach are made whatever started the server, a read that shows nothing fails the task ("unseen", never
"unchanged"), and a file's own `reads` never keep another server's state reads. Trajectories are scripted."""

from __future__ import annotations

from course_lib import serving, wire
from course_lib.evals import cases, run
from course_lib.servers import workspace
from test_task_shortcuts import RETRO, Script

JUNK = ("create_event", {"title": "Junk", "date": "2026-10-12", "start": "09:00", "minutes": 480})
WORKSPACE_READS = 'reads = ["list_events", "get_ticket", "search_tickets"]\n'
RETRO_TASK = """
[[task]]
id = "schedule-retro"
request = "Schedule a retro on 2026-10-05 at 15:00 for 45 minutes."
check = [{ tool = "list_events", args = { date = "2026-10-05" }, path = "events", changed_by = 1, items = { title = "retro", start = "15:00", minutes = 45 } }]
"""


def result(task, turns, target):
    return wire.run_sync(lambda: run.run_tasks([task], Script(turns), target)).results[0]


def test_a_stdio_command_the_harness_did_not_start_gets_the_same_per_date_reads():
    command = " ".join(serving.command("workspace"))
    found = cases.parse(f'server = "workspace"\n{WORKSPACE_READS}{RETRO_TASK}').on(command)
    target = run.Target(spec=command)
    assert not target.owned
    junk = result(found.tasks[0], [[RETRO, JUNK]], target)
    assert not junk.success and any('list_events {"date": "2026-10-12"}: events' in c for c in junk.changed), junk
    assert result(found.tasks[0], [[RETRO]], target).success


def test_a_target_that_keeps_its_state_between_connections_leaves_those_reads_unseen():
    shared = workspace.build_server()  # every connection reaches the same server: no fresh state to read before
    task = cases.parse(f'server = "workspace"\n{RETRO_TASK}').tasks[0]
    kept = result(task, [[RETRO, JUNK]], run.Target(factory=lambda **_: shared))
    assert not kept.success and not kept.safe
    assert any(line.startswith('could not read list_events {"date": "2026-10-12"} (a fresh connection did not show')
               for line in kept.unread), kept.unread


def test_a_read_that_fails_before_and_after_is_unseen_and_fails_the_task():
    text = """server = "incidents"
state = [{ tool = "get_incident", args = { incidentId = "INC-101" } }, { tool = "get_incident", args = { incidentId = "INC-999" } }]

[[task]]
id = "note"
request = "Add a note to INC-101: cache flushed."
check = [
    { tool = "get_incident", args = { incidentId = "INC-101" }, path = "notes", changed_by = 1 },
    { tool = "get_incident", args = { incidentId = "INC-101" }, path = "notes.-1.text", contains = ["cache flushed"] },
]
"""
    task = cases.parse(text).tasks[0]
    turns = [[("add_incident_note", {"incidentId": "INC-101", "note": "Cache flushed.",
                                     "requestId": "9a7c5e3b-1d2f-4a6b-8c9d-0e1f2a3b4c5d"})]]
    failed = result(task, turns, run.Target.of("incidents"))
    assert all(c.ok for c in failed.checks) and not failed.changed
    assert not failed.success
    assert [line[:55] for line in failed.unread] == ['could not read get_incident {"incidentId": "INC-999"} (']
    assert "so a change there is unseen" in run.TaskReport("t", "x", [failed]).rows()[0][-1]


def test_a_files_own_reads_never_keep_another_servers_state_reads():
    # written for the incident desk, with its own reads, run on the workspace: the workspace's state is read
    found = cases.parse(f'server = "incidents"\n{WORKSPACE_READS}{RETRO_TASK}').on("workspace")
    assert {read.tool for read in found.tasks[0].state} == {"list_events", "get_ticket"}
    other = ("create_event", {"title": "Junk", "date": "2026-10-01", "start": "09:00"})
    judged = result(found.tasks[0], [[RETRO, other]], run.Target.of("workspace"))
    assert not judged.success and not judged.unread
    assert any(c.startswith('list_events {"date": "2026-10-01"}: events') for c in judged.changed), judged.changed
    assert found.tasks[0].unseen == {"send_message", "add_document_access"}  # the workspace's, not the desk's
