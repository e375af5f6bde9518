"""Contract tests for lesson 03's order desks: recoverable errors, strict cancel, fragile styles, spec server."""

from __future__ import annotations

import json

import pytest

from course_lib import protocol, review, wire
from course_lib.servers import failures, orders
from conftest import call, text

ERAS = pytest.mark.parametrize("era", wire.ERAS)


@ERAS
def test_desk_lists_a_read_tool_and_a_destructive_one(era):
    tools = {tool["name"]: tool for tool in wire.dump(wire.run_sync(wire.list_tools, failures.build_server(), era))}
    assert list(tools) == ["get_order", "cancel_order"]
    assert tools["cancel_order"]["annotations"] == {"readOnlyHint": False, "destructiveHint": True,
                                                    "idempotentHint": True, "openWorldHint": False}
    params = tools["cancel_order"]["inputSchema"]["properties"]
    assert list(params) == ["order_number", "dry_run"], "the Context parameter is not in the schema"
    assert params["dry_run"] == {"default": False, "description": params["dry_run"]["description"],
                                 "title": "Dry Run", "type": "boolean"}
    assert tools["cancel_order"]["outputSchema"]["title"] == "CancelResult"


@ERAS
def test_strict_cancel_refuses_unknown_names_and_non_booleans_and_changes_nothing(era):
    store = orders.OrderStore()
    server = failures.build_server(store)
    for arguments, says in [
        ({"order_number": "ORD-1043", "dryRun": True}, "Unknown argument(s) 'dryRun'. cancel_order takes only"),
        ({"order_number": "ORD-1043", "dry_run": "yes"}, "Input should be a valid boolean"),
        ({"order_number": "ORD-1043", "dry_run": 1}, "Input should be a valid boolean"),
        ({"order_number": "ORD-1042"}, "has already shipped, so it can no longer be cancelled"),
        ({"order_number": "ORD-1050"}, "was not found for this customer"),
    ]:
        result = call(server, "cancel_order", arguments, era)
        assert result["isError"] is True and says in text(result), arguments
        assert review.leaks(text(result)) == []
    assert store.record("ORD-1043").status == "packed"
    check = call(server, "cancel_order", {"order_number": "ORD-1043", "dry_run": True}, era)
    assert check["structuredContent"] == {"order_number": "ORD-1043", "dry_run": True, "status": "packed"}
    done = call(server, "cancel_order", {"order_number": "ORD-1043"}, era)
    assert done["structuredContent"]["status"] == "cancelled" == store.record("ORD-1043").status
    again = call(server, "cancel_order", {"order_number": "ORD-1043"}, era)
    assert again["structuredContent"]["status"] == "cancelled", "cancelling twice is idempotent"


def test_bad_arguments_never_reach_the_backend():
    store = orders.OrderStore()
    server = failures.build_server(store)
    for arguments in ({"order_number": "1042"}, {"order_number": 1042}, {}):
        assert call(server, "get_order", arguments)["isError"] is True
        assert call(server, "cancel_order", arguments)["isError"] is True
    assert call(server, "cancel_order", {"order_number": "ORD-1043", "dry_run": "no"})["isError"] is True
    assert store.reads["record"] == 0


def test_messages_say_what_failed_and_what_to_do():
    server = failures.build_server()
    missing = text(call(server, "get_order", {"order_number": "ORD-9999"}))
    foreign = text(call(server, "get_order", {"order_number": "ORD-1050"}))
    down = text(call(server, "get_order", {"order_number": orders.ARCHIVED}))
    assert "list_orders" in missing and foreign.replace("ORD-1050", "ORD-9999") == missing
    assert "Try again" in down and "Nothing was changed" in down
    for message in (missing, foreign, down):
        assert review.leaks(message) == [] and "@" not in message


@pytest.mark.parametrize("style, is_error, leaks", [
    ("json-error", False, ["SQL", "internal host"]),
    ("plain-exception", True, []),
    ("raw-message", True, ["SQL", "internal host"]),
])
def test_fragile_styles_fail_the_way_the_lesson_says(style, is_error, leaks):
    with wire.sdk_warnings() as logged:
        result = call(failures.build_fragile_server(style), "get_order", {"order_number": orders.ARCHIVED})
    assert result["isError"] is is_error
    assert review.leaks(text(result)) == leaks
    if style == "plain-exception":
        assert text(result) == "Error executing tool get_order"
        assert logged == ["Tool 'get_order' raised an unexpected exception"]
    foreign = text(call(failures.build_fragile_server(style), "get_order", {"order_number": "ORD-1050"}))
    assert ("grace.hopper@example.com" in foreign) is (style != "plain-exception")


def test_fragile_cancel_drops_a_misspelt_dry_run_and_cancels():
    store = orders.OrderStore()
    result = call(failures.build_fragile_server(store=store), "cancel_order", {"order_number": "ORD-1043", "dryRun": True})
    assert result["structuredContent"] == {"order_number": "ORD-1043", "dry_run": False, "status": "cancelled"}
    assert store.record("ORD-1043").status == "cancelled"


def test_fragile_server_rejects_an_unknown_style():
    with pytest.raises(ValueError, match="unknown style"):
        failures.build_fragile_server("quiet")


@ERAS
def test_spec_server_reports_an_unknown_tool_as_a_protocol_error(era):
    async def go():
        async with wire.connect(failures.build_spec_server(), era) as client:
            unknown = await protocol.call_or_error(client, "get_ordr", {"order_number": "ORD-1042"})
            known = await protocol.call_or_error(client, "get_order", {"order_number": "ORD-1042"})
            bad = await protocol.call_or_error(client, "get_order", {"order_number": "1042"})
        return unknown, known, bad

    unknown, known, bad = wire.run_sync(go)
    assert (unknown.code, unknown.message) == (-32602, "Unknown tool: get_ordr")
    assert known.structured_content["order_number"] == "ORD-1042"
    assert json.loads(known.content[0].text) == known.structured_content
    assert bad.is_error and "ORD-1042" in bad.content[0].text
