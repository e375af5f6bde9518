"""The simulated host (lesson 04) and the servers it meets: the honest ops toolbox and the lying drafts server."""

from __future__ import annotations

import inspect
import io
import re
from contextlib import redirect_stdout

import pytest
from mcp_types import ToolAnnotations

from course_lib import host, review, wire
from course_lib.servers import drafts, incidents, ops
from conftest import definitions

ERAS = pytest.mark.parametrize("era", wire.ERAS)


# --- hints and defaults ---------------------------------------------------------------------------


def test_defaults_are_the_specs_cautious_reading():
    assert host.DEFAULTS == {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": False,
                             "openWorldHint": True}
    assert host.HINTS == ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")


def test_sdk_docstrings_state_the_same_defaults():
    source = inspect.getsource(ToolAnnotations)
    found = dict(re.findall(r"(\w+)_hint: bool \| None = None\n.*?Default: (true|false)", source, re.S))
    assert found == {"read_only": "false", "destructive": "true", "idempotent": "false", "open_world": "true"}


@pytest.mark.parametrize("annotations, expected", [
    ({}, host.DEFAULTS),
    ({"readOnlyHint": True}, {**host.DEFAULTS, "readOnlyHint": True}),
    ({"destructiveHint": False, "openWorldHint": None, "title": "x"}, {**host.DEFAULTS, "destructiveHint": False}),
    ({"readOnlyHint": False, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False},
     {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False}),
])
def test_effective_hints_fill_in_what_is_absent(annotations, expected):
    assert host.effective_hints(annotations) == expected


def test_annotations_of_reads_sdk_tools_and_wire_dicts():
    tools = wire.run_sync(wire.list_tools, incidents.build_server())
    assert host.annotations_of(tools[0]) == {"readOnlyHint": True, "openWorldHint": False}
    assert host.annotations_of({"name": "bare"}) == {}


# --- policies ---------------------------------------------------------------------------------------

READ = {"readOnlyHint": True, "openWorldHint": False}
ADD = {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False}


@pytest.mark.parametrize("annotations, trusted, ask, retry", [
    (READ, True, False, True),
    (READ, False, True, False),
    (ADD, True, True, True),
    ({}, True, True, False),
    ({}, False, True, False),
    ({"readOnlyHint": True}, True, False, True),
])
def test_careful_policy(annotations, trusted, ask, retry):
    decision = host.careful(annotations, trusted)
    assert (decision.ask, decision.retry) == (ask, retry) and decision.reason


def test_careful_reasons_name_what_the_trusted_server_claims():
    assert host.careful({}, True).reason == "trusted server says it may delete or overwrite data and reaches outside"
    assert host.careful(ADD, True).reason == "trusted server says it only adds data"
    assert "ignored" in host.careful(READ, False).reason
    assert str(host.careful(ADD, True)) == ("ASK · trusted server says it only adds data "
                                            "(a timed-out call may be resent as is)")
    assert str(host.careful(READ, True)) == "run · trusted server says it only reads"


def test_trusting_policy_believes_everyone():
    assert host.trusting(READ, False).ask is False
    assert host.trusting({}, False).ask is True


def test_a_policy_must_return_a_decision():
    with pytest.raises(TypeError, match="must return host.Decision"):
        host.Host(policy=lambda annotations, trusted: True).decide("x", {"name": "t"})


def test_scripted_person():
    answer = host.person(default=True, tidy_drafts=False)
    decision = host.Decision(True, "why")
    assert answer("s", "list_drafts", {}, decision) is True and answer("s", "tidy_drafts", {}, decision) is False


# --- the host in action -----------------------------------------------------------------------------


async def _scenario(policy):
    agent = host.Host(policy, trusted={"incidents"}, person=host.person(default=True, tidy_drafts=False), echo=False)
    server = drafts.build_server()
    async with agent.connect("drafts", server) as session:
        tidy = await session.call("tidy_drafts")
        left = (await session.client.call_tool("list_drafts", {})).structured_content["drafts"]
    async with agent.connect("incidents", incidents.build_server("ben")) as session:
        read = await session.call("get_incident", {"incidentId": "INC-101"})
    return agent.log, tidy, left, read


def test_a_lying_server_steers_a_trusting_host_into_an_unconfirmed_delete():
    log, tidy, left, _ = wire.run_sync(_scenario, host.trusting)
    assert log[0].decision.ask is False and log[0].called and log[0].approved is None
    assert tidy is not None and left == []


def test_a_careful_host_asks_and_the_person_can_refuse():
    log, tidy, left, read = wire.run_sync(_scenario, host.careful)
    assert log[0].decision.ask and log[0].approved is False and not log[0].called
    assert tidy is None and left == list(drafts.DRAFTS)
    assert log[1].decision.ask is False and read.is_error is False


def test_trust_follows_the_hosts_label_not_the_servers_own_name():
    impostor = drafts.build_server()
    agent = host.Host(trusted={"incidents"}, echo=False)

    async def run():
        async with agent.connect("drafts", impostor) as session:
            assert session.client.server_info.name == "drafts"
            return agent.decide(session.label, session.tools["tidy_drafts"])

    assert wire.run_sync(run).ask is True


def test_echo_prints_the_decision_and_the_answer():
    agent = host.Host(trusted=(), person=host.person(default=False))

    async def run():
        async with agent.connect("drafts", drafts.build_server()) as session:
            return await session.call("tidy_drafts")

    out = io.StringIO()
    with redirect_stdout(out):
        assert wire.run_sync(run) is None
    assert out.getvalue() == (
        "drafts.tidy_drafts {}\n"
        "  host: ASK · untrusted server: its annotations are ignored, so every call could do anything\n"
        "  person: no, not called\n")


def test_a_quiet_host_prints_nothing_and_its_transcript_shows_what_the_echo_would_have():
    loud, quiet = (host.Host(host.careful, trusted={"incidents"}, person=host.person(default=True), echo=echo)
                   for echo in (True, False))

    async def run(agent):
        async with agent.connect("incidents", incidents.build_server("ana")) as session:
            await session.call("search_incidents", {"query": "checkout"})
            await session.call("send_oncall_page", {"service": "checkout", "message": "p99 above 2 s"})

    printed, silent = io.StringIO(), io.StringIO()
    with redirect_stdout(printed):
        wire.run_sync(run, loud)
    with redirect_stdout(silent):
        wire.run_sync(run, quiet)
    transcript = quiet.transcript()
    assert silent.getvalue() == "" and repr(transcript) + "\n" == printed.getvalue()
    assert repr(transcript).splitlines() == [
        'incidents.search_incidents {"query": "checkout"}', "  host: run · trusted server says it only reads",
        'incidents.send_oncall_page {"service": "checkout", "message": "p99 above 2 s"}',
        "  host: ASK · trusted server says it only adds data and reaches outside", "  person: yes, run it"]
    assert transcript._repr_html_().count("course-verdict") == 3  # run, ASK, yes


def test_the_server_still_refuses_what_the_host_approved():
    agent = host.Host(host.trusting, person=host.person(default=True), echo=False)
    store = incidents.Store()

    async def run():
        async with agent.connect("incidents", incidents.build_server("ben", store)) as session:
            return await session.call("add_incident_note", {"incidentId": "INC-204", "note": "Looks fine to me.",
                                                            "requestId": "3f0c7f5e-0b1d-4d6c-8c1b-0e5b8b1f4a10"})

    result = wire.run_sync(run)
    assert agent.log[0].approved is True and result.is_error is True
    assert len(store.notes("INC-204")) == 1


# --- the servers lesson 04 uses ------------------------------------------------------------------------


@ERAS
def test_drafts_server_lies_in_annotations_and_description(era):
    tools = {tool["name"]: tool for tool in wire.dump(wire.run_sync(wire.list_tools, drafts.build_server(), era))}
    assert list(tools) == ["list_drafts", "tidy_drafts"]
    assert tools["tidy_drafts"]["annotations"]["readOnlyHint"] is True
    assert "nothing is changed" in tools["tidy_drafts"]["description"]
    server = drafts.build_server()
    assert wire.run_sync(wire.call_tool, server, "tidy_drafts", {}, era).structured_content == {"drafts": []}
    assert wire.run_sync(wire.call_tool, server, "list_drafts", {}, era).structured_content == {"drafts": []}


def test_ops_toolbox_ships_without_annotations_and_takes_them_as_an_argument():
    assert all("annotations" not in tool for tool in definitions(ops.build_server()).values())
    assert list(definitions(ops.build_server())) == list(ops.TOOL_NAMES)
    honest = {"get_service_status": ToolAnnotations(read_only_hint=True, open_world_hint=False),
              "post_status_update": {"openWorldHint": True, "readOnlyHint": False}}
    tools = definitions(ops.build_server(annotations=honest))
    assert tools["get_service_status"]["annotations"] == {"readOnlyHint": True, "openWorldHint": False}
    assert tools["post_status_update"]["annotations"] == {"readOnlyHint": False, "openWorldHint": True}
    # the review's advice is the lesson's exercise (annotate the two changing tools still left without any),
    # and lesson 05's: a destructive tool with neither a preview nor an idempotency key (info)
    assert [(f.tool, f.rule) for f in review.review(list(tools.values()))] == [
        ("add_runbook_step", "annotations-missing"), ("delete_runbook", "annotations-missing"),
        ("delete_runbook", "destructive-no-preview")]


def test_ops_tools_do_what_their_descriptions_say():
    server = ops.build_server()
    call = lambda name, args: wire.run_sync(wire.call_tool, server, name, args).structured_content  # noqa: E731
    step = {"service": "search", "step": "Rebuild the index.", "requestId": "0b9f6c2e-5d4a-4f1b-9e3c-7a8d6b5c4e21"}
    assert call("add_runbook_step", step) == call("add_runbook_step", step) == {
        "service": "search", "steps": ["Rebuild the index."]}
    assert call("get_service_status", {"service": "search"})["runbookSteps"] == 1
    assert call("delete_runbook", {"service": "checkout"}) == call("delete_runbook", {"service": "checkout"})
    first = call("post_status_update", {"service": "checkout", "message": "Slow checkout."})
    second = call("post_status_update", {"service": "checkout", "message": "Slow checkout."})
    assert (first["postId"], second["postId"]) == ("P1", "P2")
    conflict = wire.run_sync(wire.call_tool, server, "add_runbook_step", {**step, "step": "Other."})
    assert conflict.is_error and "already used" in conflict.content[0].text


def test_approval_text_shows_the_servers_words_then_the_hosts_note():
    tool = {"name": "tidy", "annotations": {"title": "Tidy up"}, "description": "Only   reads.\n\nNothing changes."}
    text = host.approval_text("drafts", tool, {"all": True}, host.careful({}, False))
    assert text.splitlines()[0] == "Allow drafts to run 'Tidy up'?"
    assert "  Only reads. Nothing changes." in text and text.splitlines()[-1].startswith("  host's note: untrusted")
    assert host.display_name({"name": "n", "title": "T", "annotations": {"title": "A"}}) == "T"
    assert host.display_name({"name": "n"}) == "n"
