"""Contract tests for lesson 03's order desks: recoverable errors, strict cancel, fragile styles, spec server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from course_lib import protocol, review, wire
from course_lib.servers import failures, orders
from conftest import call, text, server_info

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
    assert "Check the number with the person" in missing and "list_orders" not in missing  # the desk lacks it
    assert foreign.replace("ORD-1050", "ORD-9999") == missing
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


# --- exact wording, names and the spec server's listing (what a model and a lesson read) ------------------

CONTRACTS = Path(__file__).with_name("contracts")


@pytest.mark.parametrize("factory, name", [
    (failures.build_server, "order-desk"),
    (lambda: failures.build_fragile_server("json-error"), "order-desk-json-error"),
    (lambda: failures.build_fragile_server("raw-message"), "order-desk-raw-message"),
    (failures.build_spec_server, "order-desk-spec"),
])
def test_desks_introduce_themselves_by_name(factory, name):
    assert server_info(factory()).name == name


def test_unknown_arguments_are_named_sorted_cut_short_and_at_most_five():
    store = orders.OrderStore()
    arguments = {"order_number": "ORD-1043", "urgent": True, "reason": "moved house", "force": True,
                 "notify_customer_by_email_and_sms_before_cancelling": True, "dryRun": True, "confirm": True}
    result = wire.run_sync(wire.call_tool, failures.build_server(store), "cancel_order", arguments)
    assert result.is_error is True
    assert result.content[0].text == (
        "Error executing tool cancel_order: Unknown argument(s) 'confirm', 'dryRun', 'force', "
        "'notify_customer_by_email_and_sms_before_', 'reason'. cancel_order takes only: order_number, dry_run. "
        "Fix the names and call again; nothing was changed.")
    assert store.record("ORD-1043").status == "packed"


@pytest.mark.parametrize("number, status, says", [
    ("ORD-1042", "shipped", "ORD-1042 has already shipped, so it can no longer be cancelled. Nothing was changed. "
                            "Tell the person they can return it after delivery."),
    ("ORD-1044", "delivered", "ORD-1044 has already been delivered, so it can no longer be cancelled. "
                              "Nothing was changed. Tell the person they can return it after delivery."),
])
def test_shipped_and_delivered_orders_are_refused_word_for_word(number, status, says):
    store = orders.OrderStore()
    server = failures.build_server(store)
    for dry_run in (True, False):
        result = wire.run_sync(wire.call_tool, server, "cancel_order", {"order_number": number, "dry_run": dry_run})
        assert result.is_error is True
        assert result.content[0].text == f"Error executing tool cancel_order: {says}"
    row = store.record(number)
    assert row.status == status and row.audit_log[-1].action != "status set to cancelled"


def test_cancel_changes_the_backend_once_and_a_repeat_changes_nothing():
    store = orders.OrderStore()
    first = failures.cancel(store, "ORD-1045", dry_run=False)
    assert first.model_dump() == {"order_number": "ORD-1045", "dry_run": False, "status": "cancelled"}
    row = store.record("ORD-1045")
    assert [entry.action for entry in row.audit_log[-2:]] == ["invoice issued", "status set to cancelled"]
    again = failures.cancel(store, "ORD-1045", dry_run=False)
    assert again.model_dump() == {"order_number": "ORD-1045", "dry_run": False, "status": "cancelled"}
    assert len(store.record("ORD-1045").audit_log) == 6, "a repeat is not logged again"


def test_fragile_server_names_the_styles_it_knows():
    with pytest.raises(ValueError) as caught:
        failures.build_fragile_server("quiet")
    assert str(caught.value) == "unknown style 'quiet'; use one of json-error, plain-exception, raw-message"


def test_spec_server_lists_one_get_order_tool_with_the_orders_output_schema():
    listed = wire.dump(wire.run_sync(wire.list_tools, failures.build_spec_server()))
    committed = json.loads((CONTRACTS / "orders.json").read_text(encoding="utf-8"))["tools"][0]
    assert committed["name"] == "get_order"
    assert listed == [{
        "name": "get_order",
        "description": "Status and items of one of the signed-in customer's orders.",
        "inputSchema": {"type": "object",
                        "properties": {"order_number": {"type": "string", "pattern": "^ORD-[0-9]{4}$"}},
                        "required": ["order_number"]},
        "outputSchema": committed["outputSchema"],
    }]


ORD_1042_TEXT = """{
  "order_number": "ORD-1042",
  "status": "shipped",
  "expected_delivery": "2026-10-05",
  "carrier": "Parcelline",
  "tracking_code": "PL-558120",
  "lines": [
    {
      "sku": "KB-101",
      "name": "Mechanical keyboard",
      "quantity": 1
    },
    {
      "sku": "CB-220",
      "name": "USB-C cable, 2 m",
      "quantity": 2
    }
  ]
}"""


def test_spec_server_answers_tool_calls_as_results_with_their_own_words():
    async def go():
        async with wire.connect(failures.build_spec_server()) as client:
            return [await client.call_tool("get_order", arguments) for arguments in (
                {"order_number": "ORD-1042"}, {"order_number": "ORD-1050"}, {"order_number": orders.ARCHIVED},
                {"order_number": 1042}, {})]

    known, foreign, down, number, empty = wire.run_sync(go)
    assert (known.is_error, known.content[0].text) == (False, ORD_1042_TEXT)
    assert known.structured_content["tracking_code"] == "PL-558120"
    assert (foreign.is_error, foreign.content[0].text) == (True, (
        "Order 'ORD-1050' was not found for this customer. Check the number with the person "
        "(it looks like ORD-1042)."))  # the desk has no list_orders, so its message names none
    assert foreign.structured_content is None
    assert (down.is_error, down.content[0].text) == (True, (
        "The order service could not read ORD-1066 just now (a temporary outage). Nothing was changed. "
        "Try again in a minute; if it keeps failing, tell the person the details are unavailable."))
    for refused in (number, empty):
        assert (refused.is_error, refused.content[0].text) == (
            True, "order_number is required: a string such as 'ORD-1042'.")
