"""Lesson 04's ops toolbox: what each of its four tools does, since exercise 4.1 reads the honest hints off it.

The expected values are the toolbox's seed data and the behaviour its descriptions promise: a read that changes
nothing, an append that a retry with the same requestId does not repeat, a delete that empties a runbook and
stays empty, and a post that is new on every call.
"""

from __future__ import annotations

import pytest
from mcp_types import ToolAnnotations
from pydantic import ValidationError

from conftest import call, definitions, text, server_info
from course_lib import wire
from course_lib.servers import ops

STEP_KEY = "0b1c5e2a-6f3d-4c8e-9a71-2d4f6b8e0c13"
OTHER_KEY = "7e2d9c40-1a5b-4f38-b6e2-93c0d1a8f547"
CHECKOUT_STEPS = ["Check the last deploy.", "Roll back if latency > 2 s."]
PAYMENTS_STEPS = ["Call the bank's status line."]


def session(server, planned: list[tuple[str, dict]]) -> list[dict]:
    """Several calls on one server, in one client session; each result in wire form."""

    async def run() -> list[dict]:
        async with wire.connect(server) as client:
            return [wire.dump(await client.call_tool(name, arguments)) for name, arguments in planned]

    return wire.run_sync(run)


def statuses() -> list[tuple[str, dict]]:
    return [("get_service_status", {"service": service}) for service in ("checkout", "payments", "search")]


def content(results: list[dict]) -> list[dict]:
    assert all(result["isError"] is False for result in results), [text(r) for r in results if r["isError"]]
    return [result["structuredContent"] for result in results]


def test_the_toolbox_is_called_ops_and_sends_no_annotations_by_default():
    server = ops.build_server()
    tools = definitions(server)
    assert list(tools) == ["get_service_status", "add_runbook_step", "delete_runbook", "post_status_update"]
    assert list(tools) == list(ops.TOOL_NAMES)
    assert [name for name, tool in tools.items() if "annotations" in tool] == []

    assert server_info(server).name == "ops"


def test_given_annotations_reach_the_wire_whether_objects_or_wire_form_dicts():
    server = ops.build_server(annotations={
        "get_service_status": ToolAnnotations(read_only_hint=True, open_world_hint=False),
        "delete_runbook": {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": True},
    })
    tools = definitions(server)
    assert tools["get_service_status"]["annotations"] == {"readOnlyHint": True, "openWorldHint": False}
    assert tools["delete_runbook"]["annotations"] == {"readOnlyHint": False, "destructiveHint": True,
                                                      "idempotentHint": True}
    assert "annotations" not in tools["add_runbook_step"] and "annotations" not in tools["post_status_update"]


def test_a_hint_that_is_not_a_boolean_is_refused_when_the_toolbox_is_built():
    """Exercise 4.1's check shows this error to the learner: it names the type they wrote and the hint."""
    with pytest.raises(ValidationError) as refused:
        ops.build_server(annotations={"delete_runbook": {"destructiveHint": "sometimes"}})
    assert str(refused.value).startswith(
        "1 validation error for ToolAnnotations\ndestructiveHint\n  Input should be a valid boolean")


def test_each_service_reports_its_health_and_number_of_runbook_steps():
    assert content(session(ops.build_server(), statuses())) == [
        {"service": "checkout", "status": "degraded", "runbookSteps": 2},
        {"service": "payments", "status": "operational", "runbookSteps": 1},
        {"service": "search", "status": "operational", "runbookSteps": 0},
    ]


def test_get_service_status_changes_nothing():
    before, after = [content(session(server, statuses())) for server in [ops.build_server()] * 2]
    assert before == after


def test_add_runbook_step_appends_to_the_end_and_keeps_every_existing_step():
    added = content(session(ops.build_server(), [
        ("add_runbook_step", {"service": "checkout", "step": "Page the on-call.", "requestId": STEP_KEY}),
        ("add_runbook_step", {"service": "payments", "step": "Check the queue.", "requestId": OTHER_KEY}),
        *statuses(),
    ]))
    assert added[0] == {"service": "checkout", "steps": [*CHECKOUT_STEPS, "Page the on-call."]}
    assert added[1] == {"service": "payments", "steps": [*PAYMENTS_STEPS, "Check the queue."]}
    assert [status["runbookSteps"] for status in added[2:]] == [3, 2, 0]


def test_a_retry_with_the_same_request_id_adds_nothing_and_a_new_one_adds_again():
    step = {"service": "search", "step": "Restart the indexer."}
    results = content(session(ops.build_server(), [
        ("add_runbook_step", {**step, "requestId": STEP_KEY}),
        ("add_runbook_step", {**step, "requestId": STEP_KEY}),
        ("get_service_status", {"service": "search"}),
        ("add_runbook_step", {**step, "requestId": OTHER_KEY}),
    ]))
    once = {"service": "search", "steps": ["Restart the indexer."]}
    assert results[:3] == [once, once, {"service": "search", "status": "operational", "runbookSteps": 1}]
    assert results[3] == {"service": "search", "steps": ["Restart the indexer.", "Restart the indexer."]}


@pytest.mark.parametrize("change", [{"step": "Check the queue."}, {"service": "payments"}])
def test_a_request_id_reused_for_a_different_step_is_refused_and_changes_nothing(change):
    first = {"service": "checkout", "step": "Page the on-call.", "requestId": STEP_KEY}
    results = session(ops.build_server(), [("add_runbook_step", first), ("add_runbook_step", {**first, **change}),
                                           *statuses()])
    assert results[1]["isError"] is True
    assert text(results[1]) == ("Error executing tool add_runbook_step: this requestId was already used for a "
                                "different step; use a new UUID.")
    assert [status["runbookSteps"] for status in content(results[2:])] == [3, 1, 0]


def test_delete_runbook_empties_one_runbook_and_deleting_again_changes_nothing():
    results = content(session(ops.build_server(), [
        ("delete_runbook", {"service": "checkout"}),
        *statuses(),
        ("delete_runbook", {"service": "checkout"}),
        ("get_service_status", {"service": "checkout"}),
        ("add_runbook_step", {"service": "checkout", "step": "Start over.", "requestId": STEP_KEY}),
    ]))
    assert results[0] == {"service": "checkout", "steps": []}
    assert [status["runbookSteps"] for status in results[1:4]] == [0, 1, 0], "only checkout's runbook is emptied"
    assert results[4:6] == [{"service": "checkout", "steps": []},
                            {"service": "checkout", "status": "degraded", "runbookSteps": 0}]
    assert results[6] == {"service": "checkout", "steps": ["Start over."]}


def test_every_status_update_is_a_new_numbered_post():
    message = "Checkout is slow; we are on it."
    posts = content(session(ops.build_server(), [
        ("post_status_update", {"service": "checkout", "message": message}),
        ("post_status_update", {"service": "checkout", "message": message}),
        ("post_status_update", {"service": "search", "message": "Search is back."}),
    ]))
    assert posts == [{"postId": "P1", "service": "checkout", "message": message},
                     {"postId": "P2", "service": "checkout", "message": message},
                     {"postId": "P3", "service": "search", "message": "Search is back."}]


def test_each_build_starts_from_the_same_fresh_state():
    first = ops.build_server()
    content(session(first, [("delete_runbook", {"service": "payments"}),
                            ("add_runbook_step", {"service": "search", "step": "x", "requestId": STEP_KEY}),
                            ("post_status_update", {"service": "search", "message": "Down."})]))
    fresh = content(session(ops.build_server(), [
        *statuses(),
        ("add_runbook_step", {"service": "search", "step": "y", "requestId": STEP_KEY}),
        ("post_status_update", {"service": "search", "message": "Up."}),
    ]))
    assert [status["runbookSteps"] for status in fresh[:3]] == [2, 1, 0]
    assert fresh[3] == {"service": "search", "steps": ["y"]}, "a request ID of another build is not a retry"
    assert fresh[4]["postId"] == "P1"


@pytest.mark.parametrize("name, arguments, says", [
    ("get_service_status", {"service": "billing"}, "service\n  Input should be 'checkout', 'payments' or 'search'"),
    ("delete_runbook", {"service": "Checkout"}, "service\n  Input should be 'checkout', 'payments' or 'search'"),
    ("add_runbook_step", {"service": "search", "step": "", "requestId": STEP_KEY},
     "step\n  String should have at least 1 character"),
    ("add_runbook_step", {"service": "search", "step": "x" * 201, "requestId": STEP_KEY},
     "step\n  String should have at most 200 characters"),
    ("add_runbook_step", {"service": "search", "step": "x", "requestId": "step-1"},
     "requestId\n  Input should be a valid UUID"),
    ("add_runbook_step", {"service": "search", "step": "x"}, "requestId\n  Field required"),
    ("post_status_update", {"service": "search", "message": ""}, "message\n  String should have at least 1 character"),
    ("post_status_update", {"service": "search", "message": "x" * 281},
     "message\n  String should have at most 280 characters"),
])
def test_bad_arguments_are_refused_naming_the_parameter_and_the_rule(name, arguments, says):
    server = ops.build_server()
    result = call(server, name, arguments)
    assert result["isError"] is True and says in text(result)
    assert content(session(server, statuses())) == [
        {"service": "checkout", "status": "degraded", "runbookSteps": 2},
        {"service": "payments", "status": "operational", "runbookSteps": 1},
        {"service": "search", "status": "operational", "runbookSteps": 0},
    ], "a refused call changes nothing"


def test_boundary_lengths_are_accepted():
    posted = content(session(ops.build_server(), [
        ("add_runbook_step", {"service": "search", "step": "s" * 200, "requestId": STEP_KEY}),
        ("post_status_update", {"service": "search", "message": "m" * 280}),
    ]))
    assert posted[0]["steps"] == ["s" * 200] and posted[1]["message"] == "m" * 280
