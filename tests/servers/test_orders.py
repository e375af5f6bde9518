"""Contract tests for lesson 02's order servers: trimmed outputs, schemas, errors, in both protocol eras."""

from __future__ import annotations

import json

import pytest

from course_lib import review, wire
from course_lib.servers import orders
from conftest import call, definitions, text, server_info

ERAS = pytest.mark.parametrize("era", wire.ERAS)
SECRETS = ("sk_demo_", "corp.internal", "ada.lovelace@", "88231", "audit_log", "svc-fulfilment")
ORD_1042_SUMMARY = {
    "order_number": "ORD-1042", "status": "shipped", "expected_delivery": "2026-10-05",
    "carrier": "Parcelline", "tracking_code": "PL-558120",
    "lines": [{"sku": "KB-101", "name": "Mechanical keyboard", "quantity": 1},
              {"sku": "CB-220", "name": "USB-C cable, 2 m", "quantity": 2}],
}


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
    assert result["structuredContent"] == ORD_1042_SUMMARY
    assert json.loads(text(result)) == ORD_1042_SUMMARY
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


# --- the backend's fixed table, written out (lesson 02 shows these rows; lesson 03 builds on them) ---------

def _audit(*entries):
    return [{"at": at, "actor": actor, "action": action} for at, actor, action in entries]


ORD_1042_ROW = {
    "row_id": 88231, "order_number": "ORD-1042", "customer_id": "cus-ada",
    "customer_email": "ada.lovelace@example.com", "status": "shipped",
    "lines": [{"sku": "KB-101", "name": "Mechanical keyboard", "quantity": 1},
              {"sku": "CB-220", "name": "USB-C cable, 2 m", "quantity": 2}],
    "carrier": "Parcelline", "tracking_code": "PL-558120", "expected_delivery": "2026-10-05",
    "payment_token": "sk_demo_1042Zq81vLwP3xTnotreal", "fulfilment_host": "wh-eu-3.corp.internal",
    "created_at": "2026-09-26T09:15:00Z", "updated_at": "2026-09-28T03:15:00Z", "updated_by": "svc-fulfilment",
    "audit_log": _audit(
        ("2026-09-26T09:15:00Z", "svc-orders", "order placed"),
        ("2026-09-26T12:15:00Z", "svc-orders", "payment authorised"),
        ("2026-09-26T15:15:00Z", "svc-orders", "fraud check passed"),
        ("2026-09-26T18:15:00Z", "svc-orders", "stock reserved"),
        ("2026-09-26T21:15:00Z", "svc-orders", "invoice issued"),
        ("2026-09-27T00:15:00Z", "svc-fulfilment", "picking list printed"),
        ("2026-09-27T03:15:00Z", "svc-fulfilment", "items picked"),
        ("2026-09-27T06:15:00Z", "svc-fulfilment", "items packed"),
        ("2026-09-27T09:15:00Z", "svc-fulfilment", "weight checked"),
        ("2026-09-27T12:15:00Z", "svc-fulfilment", "label printed"),
        ("2026-09-27T15:15:00Z", "svc-fulfilment", "carrier booked"),
        ("2026-09-27T18:15:00Z", "svc-fulfilment", "handed to carrier"),
        ("2026-09-27T21:15:00Z", "svc-fulfilment", "customer e-mail sent"),
        ("2026-09-28T00:15:00Z", "svc-fulfilment", "address verified"),
        ("2026-09-28T03:15:00Z", "svc-fulfilment", "in transit"),
    ),
}

ORD_1045_ROW = {
    "row_id": 88282, "order_number": "ORD-1045", "customer_id": "cus-ada",
    "customer_email": "ada.lovelace@example.com", "status": "received",
    "lines": [{"sku": "NB-005", "name": "Dotted notebook", "quantity": 3}],
    "carrier": None, "tracking_code": None, "expected_delivery": "2026-10-09",
    "payment_token": "sk_demo_1045Zq81vLwP3xTnotreal", "fulfilment_host": "wh-eu-3.corp.internal",
    "created_at": "2026-09-27T21:15:00Z", "updated_at": "2026-09-28T09:15:00Z", "updated_by": "svc-orders",
    "audit_log": _audit(
        ("2026-09-27T21:15:00Z", "svc-orders", "order placed"),
        ("2026-09-28T00:15:00Z", "svc-orders", "payment authorised"),
        ("2026-09-28T03:15:00Z", "svc-orders", "fraud check passed"),
        ("2026-09-28T06:15:00Z", "svc-orders", "stock reserved"),
        ("2026-09-28T09:15:00Z", "svc-orders", "invoice issued"),
    ),
}


@pytest.mark.parametrize("number, expected", [("ORD-1042", ORD_1042_ROW), ("ORD-1045", ORD_1045_ROW)])
def test_raw_server_hands_over_the_whole_backend_row(number, expected):
    result = wire.run_sync(wire.call_tool, orders.build_raw_server(), "get_order_record", {"order_number": number})
    assert result.is_error is False
    assert json.loads(result.content[0].text) == expected


def test_rows_further_down_the_table_have_their_own_ids_times_and_actors():
    row = orders.OrderStore().record("ORD-1044")  # third row of the table, delivered: all 18 steps
    assert (row.row_id, row.created_at, row.updated_at, row.updated_by) == (
        88265, "2026-09-27T09:15:00Z", "2026-09-29T12:15:00Z", "svc-fulfilment")
    assert [(entry.at, entry.actor, entry.action) for entry in row.audit_log[4:6]] == [
        ("2026-09-27T21:15:00Z", "svc-orders", "invoice issued"),
        ("2026-09-28T00:15:00Z", "svc-fulfilment", "picking list printed")]
    assert row.audit_log[-1].action == "delivered" and len(row.audit_log) == 18


@pytest.mark.parametrize("factory, name", [(orders.build_server, "orders"), (orders.build_raw_server, "orders-raw")])
def test_servers_introduce_themselves_by_name(factory, name):
    assert server_info(factory()).name == name


def test_refusals_read_word_for_word():
    server = orders.build_server()
    missing = wire.run_sync(wire.call_tool, server, "get_order", {"order_number": "ORD-9999"})
    down = wire.run_sync(wire.call_tool, server, "get_order", {"order_number": orders.ARCHIVED})
    assert missing.is_error and missing.content[0].text == (
        "Error executing tool get_order: Order 'ORD-9999' was not found for this customer. "
        "Check the number with the person (it looks like ORD-1042), or call list_orders to see their orders.")
    assert down.is_error and down.content[0].text == (
        "Error executing tool get_order: The order service could not read ORD-1066 just now "
        "(a temporary outage). Nothing was changed. "
        "Try again in a minute; if it keeps failing, tell the person the details are unavailable.")


def test_a_missing_order_error_carries_just_the_number():
    with pytest.raises(orders.OrderNotFound) as caught:
        orders.OrderStore().record("ORD-9999")
    assert str(caught.value) == "ORD-9999"  # lesson 03's fragile desk shows "OrderNotFound: ORD-9999"


def test_store_counts_list_reads_apart_from_single_reads():
    store = orders.OrderStore()
    server = orders.build_server(store)
    call(server, "list_orders", {})
    call(server, "list_orders", {"status": "packed"})
    assert store.reads == {"records": 2}
    call(server, "get_order", {"order_number": "ORD-1043"})
    assert store.reads == {"records": 2, "record": 1}


def test_rows_handed_out_are_copies_that_cannot_change_the_backend():
    store = orders.OrderStore()
    record = store.record("ORD-1042")
    record.lines[0].quantity = 99
    record.audit_log.clear()
    listed = store.records("cus-ada")
    assert [row.order_number for row in listed] == ["ORD-1045", "ORD-1044", "ORD-1043", "ORD-1042"]
    listed[3].lines.append(orders.OrderLine(sku="XX-000", name="Extra", quantity=1))
    listed[3].audit_log.clear()
    changed = store.set_status("ORD-1043", "cancelled")
    changed.audit_log.clear()
    changed.lines[0].quantity = 7
    again = store.record("ORD-1042")
    assert [(line.sku, line.quantity) for line in again.lines] == [("KB-101", 1), ("CB-220", 2)]
    assert len(again.audit_log) == 15
    cancelled = store.record("ORD-1043")
    assert (cancelled.status, len(cancelled.audit_log), cancelled.lines[0].quantity) == ("cancelled", 11, 1)


def test_a_status_change_is_logged_with_its_time_and_actor():
    store = orders.OrderStore()
    returned = store.set_status("ORD-1042", "delivered")
    stored = store.record("ORD-1042")
    for row in (returned, stored):
        assert row.status == "delivered" and len(row.audit_log) == 16
        assert row.audit_log[-1].model_dump() == {"at": "2026-10-04T17:15:00Z", "actor": "svc-orders",
                                                  "action": "status set to delivered"}
        assert (row.updated_at, row.updated_by) == ("2026-10-04T17:15:00Z", "svc-orders")
        assert row.audit_log[-2].action == "in transit"


ORD_1042_SHIPMENT = {
    "order_number": "ORD-1042", "status": "shipped", "carrier": "Parcelline", "tracking_code": "PL-558120",
    "expected_delivery": "2026-10-05", "carrier_api_key": "sk_demo_carrier_7Hq2Ww9xNotReal",
    "depot_host": "depot-7.parcelline.internal",
    "scans": [{"at": at, "location": place, "description": what, "scanner_id": scanner}
              for at, place, what, scanner in [
        ("2026-09-30T16:40:00Z", "Leeds hub", "received at hub", "SCN-00417"),
        ("2026-09-30T21:40:00Z", "Leeds hub", "sorted", "SCN-00430"),
        ("2026-10-01T02:40:00Z", "Leeds hub", "departed hub", "SCN-00443"),
        ("2026-10-01T07:40:00Z", "M62 linehaul", "in transit", "SCN-00456"),
        ("2026-10-01T12:40:00Z", "Manchester depot", "arrived at depot", "SCN-00469"),
        ("2026-10-01T17:40:00Z", "Manchester depot", "sorted", "SCN-00482"),
        ("2026-10-01T22:40:00Z", "Manchester depot", "departed depot", "SCN-00495"),
        ("2026-10-02T03:40:00Z", "Salford local depot", "arrived at local depot", "SCN-00508"),
        ("2026-10-02T08:40:00Z", "Salford local depot", "sorted for delivery route", "SCN-00521"),
    ]],
}


def test_shipment_record_of_a_shipped_order_is_fixed():
    assert orders.OrderStore().shipment("ORD-1042").model_dump(mode="json") == ORD_1042_SHIPMENT


def test_delivered_shipment_ends_on_the_delivery_day():
    scans = orders.OrderStore().shipment("ORD-1044").scans
    assert [(scan.at, scan.scanner_id) for scan in (scans[0], scans[-1])] == [
        ("2026-09-27T07:05:00Z", "SCN-00417"), ("2026-09-29T14:05:00Z", "SCN-00560")]
    assert (scans[-1].location, scans[-1].description) == ("Salford", "delivered to the front door")


def test_a_shipped_order_moved_to_another_status_keeps_the_scans_so_far():
    store = orders.OrderStore()
    store.set_status("ORD-1042", "cancelled")
    shipment = store.shipment("ORD-1042")
    assert shipment.status == "cancelled"
    assert [scan.at for scan in shipment.scans] == [scan["at"] for scan in ORD_1042_SHIPMENT["scans"]]


def test_an_order_with_a_carrier_booked_but_no_tracking_code_has_no_shipment(monkeypatch):
    monkeypatch.setitem(orders._ORDERS, "ORD-1046",
                        ("cus-ada", "packed", [("NB-005", "Dotted notebook", 1)], "Parcelline", None, "2026-10-08"))
    store = orders.OrderStore()
    assert store.record("ORD-1046").carrier == "Parcelline"
    assert store.shipment("ORD-1046") is None
