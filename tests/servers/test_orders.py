"""Contract tests for lesson 02's order servers: trimmed outputs, schemas, errors, in both protocol eras."""

from __future__ import annotations

import json

import pytest

from course_lib import review, wire
from course_lib.servers import orders
from conftest import call, definitions, text

ERAS = pytest.mark.parametrize("era", wire.ERAS)
SECRETS = ("sk_demo_", "corp.internal", "ada.lovelace@", "88231", "audit_log", "svc-fulfilment")


@ERAS
def test_tools_are_listed_in_order_with_typed_outputs(era):
    tools = definitions(orders.build_server(), era)
    assert list(tools) == ["get_order", "list_orders"]
    assert tools["get_order"]["outputSchema"]["title"] == "OrderSummary"
    assert tools["get_order"]["outputSchema"]["required"] == ["order_number", "status", "expected_delivery", "lines"]
    assert tools["list_orders"]["outputSchema"]["$defs"]["OrderRow"]["properties"]["expected_delivery"]["title"] == "Expected"
    for tool in tools.values():
        assert tool["annotations"] == {"readOnlyHint": True, "openWorldHint": False}
        assert "\n    " not in tool["description"]
        assert review.review_tool(tool) == []


def test_order_number_is_constrained_in_the_schema():
    prop = definitions(orders.build_server())["get_order"]["inputSchema"]["properties"]["order_number"]
    assert prop["pattern"] == orders.ORDER_NUMBER and "description" in prop


def test_output_schema_keeps_no_backend_internals():
    schema = json.dumps(definitions(orders.build_server())["get_order"]["outputSchema"])
    for field in ("row_id", "customer_email", "payment_token", "fulfilment_host", "audit_log", "updated_by"):
        assert field in orders.OrderRecord.model_fields and field not in schema


@ERAS
def test_get_order_returns_the_same_data_twice_and_nothing_secret(era):
    result = call(orders.build_server(), "get_order", {"order_number": "ORD-1042"}, era)
    assert result["isError"] is False
    expected = orders.summary(orders.OrderStore().record("ORD-1042")).model_dump(mode="json")
    assert result["structuredContent"] == expected
    assert json.loads(text(result)) == expected
    everything = json.dumps(result)
    assert not any(secret in everything for secret in SECRETS)


@ERAS
def test_unshipped_orders_have_null_tracking(era):
    data = call(orders.build_server(), "get_order", {"order_number": "ORD-1043"}, era)["structuredContent"]
    assert data["status"] == "packed" and data["carrier"] is None and data["tracking_code"] is None


@ERAS
def test_list_orders_is_newest_first_and_filters_by_status(era):
    server = orders.build_server()
    rows = call(server, "list_orders", {}, era)["structuredContent"]["orders"]
    assert [row["order_number"] for row in rows] == ["ORD-1045", "ORD-1044", "ORD-1043", "ORD-1042"]
    assert [row["items"] for row in rows] == [3, 1, 1, 3]
    shipped = call(server, "list_orders", {"status": "shipped"}, era)["structuredContent"]["orders"]
    assert [row["order_number"] for row in shipped] == ["ORD-1042"]
    assert call(server, "list_orders", {"status": "cancelled"}, era)["structuredContent"] == {"orders": []}


@ERAS
@pytest.mark.parametrize("arguments, says", [
    ({"order_number": "ORD-9999"}, "Order 'ORD-9999' was not found for this customer"),
    ({"order_number": "ORD-1050"}, "Order 'ORD-1050' was not found for this customer"),
    ({"order_number": orders.ARCHIVED}, "could not read ORD-1066 just now"),
    ({"order_number": "1042"}, "String should match pattern"),
    ({}, "Field required"),
])
def test_failures_are_recoverable_tool_errors(era, arguments, says):
    result = call(orders.build_server(), "get_order", arguments, era)
    assert result["isError"] is True and says in text(result)
    assert review.leaks(text(result)) == [] and "@" not in text(result)


def test_foreign_and_missing_orders_get_the_same_answer():
    server = orders.build_server()
    foreign = text(call(server, "get_order", {"order_number": "ORD-1050"}))
    missing = text(call(server, "get_order", {"order_number": "ORD-9999"}))
    assert foreign.replace("ORD-1050", "ORD-9999") == missing


def test_raw_server_is_the_leaky_before():
    server = orders.build_raw_server()
    assert definitions(server)["get_order_record"].get("outputSchema") is None
    result = call(server, "get_order_record", {"order_number": "ORD-1042"})
    assert "structuredContent" not in result
    assert review.leaks(text(result)) == ["secret", "internal host"]


def test_backend_is_deterministic_and_counts_reads():
    first, second = orders.OrderStore(), orders.OrderStore()
    assert first.record("ORD-1042") == second.record("ORD-1042")
    assert len(first.record("ORD-1042").audit_log) == 15
    assert first.reads["record"] == 2
    with pytest.raises(orders.OrderNotFound):
        first.record("ORD-0000")
    with pytest.raises(orders.BackendUnavailable, match="SELECT"):
        first.record(orders.ARCHIVED)


def test_shipments_list_scans_oldest_first_and_none_before_shipping():
    store = orders.OrderStore()
    shipped, delivered = store.shipment("ORD-1042"), store.shipment("ORD-1044")
    assert len(shipped.scans) == 9 and len(delivered.scans) == 12
    assert [scan.at for scan in shipped.scans] == sorted(scan.at for scan in shipped.scans)
    assert delivered.scans[-1].description == "delivered to the front door"
    assert delivered.scans[-1].at.startswith(delivered.expected_delivery)
    assert store.shipment("ORD-1043") is None


def test_each_build_has_fresh_state():
    store = orders.OrderStore()
    store.set_status("ORD-1043", "cancelled")
    assert orders.OrderStore().record("ORD-1043").status == "packed"
    data = call(orders.build_server(store), "get_order", {"order_number": "ORD-1043"})["structuredContent"]
    assert data["status"] == "cancelled"
    assert call(orders.build_server(), "get_order", {"order_number": "ORD-1043"})["structuredContent"]["status"] == "packed"
