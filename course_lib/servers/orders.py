"""Lesson 02's order desk: a backend full of internals, and tools that return only what a caller needs.

The backend is a fixed in-memory table (no clock, no randomness) shaped like a real order service:
each row carries an internal row id, the customer's e-mail, a payment token, the host that fulfils it,
audit fields and a long history. Lesson 03 builds its failure cases on the same backend.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta
from typing import Annotated, Literal

from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from pydantic import BaseModel, Field

from course_lib.servers.base import new_server, tool

Status = Literal["received", "packed", "shipped", "delivered", "cancelled"]
StatusFilter = Literal["all", "received", "packed", "shipped", "delivered", "cancelled"]
ORDER_NUMBER = r"^ORD-[0-9]{4}$"
"""The shape of an order number, e.g. ORD-1042."""
SIGNED_IN = "cus-ada"
"""The customer every lesson server acts for (a fixed sign-in keeps outputs identical)."""

OrderNumber = Annotated[str, Field(pattern=ORDER_NUMBER, description="Order number, e.g. 'ORD-1042'.")]


class OrderLine(BaseModel):
    """One product line of an order."""

    sku: str
    name: str
    quantity: int


class AuditEntry(BaseModel):
    """One change to an order row, as the backend logs it."""

    at: str
    actor: str
    action: str


class OrderRecord(BaseModel):
    """One row of the order database, exactly as the backend returns it."""

    row_id: int
    order_number: str
    customer_id: str
    customer_email: str
    status: Status
    lines: list[OrderLine]
    carrier: str | None
    tracking_code: str | None
    expected_delivery: str
    payment_token: str
    fulfilment_host: str
    created_at: str
    updated_at: str
    updated_by: str
    audit_log: list[AuditEntry]


class Scan(BaseModel):
    """One carrier scan of a parcel."""

    at: str
    location: str
    description: str
    scanner_id: str


class ShipmentRecord(BaseModel):
    """The carrier's tracking record for a shipped order, as its API returns it."""

    order_number: str
    status: Status
    carrier: str
    tracking_code: str
    expected_delivery: str
    carrier_api_key: str
    depot_host: str
    scans: list[Scan]


class OrderSummary(BaseModel):
    """What a caller needs to answer "where is my order?"."""

    order_number: str
    status: Status
    expected_delivery: str = Field(description="ISO date, YYYY-MM-DD")
    carrier: str | None = Field(default=None, description="None until the order ships")
    tracking_code: str | None = Field(default=None,
                                      description="None until the order ships")
    lines: list[OrderLine]


class OrderRow(BaseModel):
    """One order in a list: enough for a table row."""

    order_number: str = Field(title="Order")
    status: Status = Field(title="Status")
    expected_delivery: str = Field(title="Expected", description="ISO date, YYYY-MM-DD")
    items: int = Field(title="Items", description="Number of items in the order")


class OrderList(BaseModel):
    """The signed-in customer's orders, newest first."""

    orders: list[OrderRow]


class OrderNotFound(LookupError):
    """No order with that number exists."""


class BackendUnavailable(RuntimeError):
    """The database could not be reached; the message is for operators (it names hosts and SQL)."""


# --- the backend data -------------------------------------------------------------------------------

_CREATED = datetime(2026, 9, 26, 9, 15)
_CUSTOMERS = {"cus-ada": "ada.lovelace@example.com", "cus-grace": "grace.hopper@example.com"}
# number -> (customer, status, lines, carrier, tracking code, expected delivery)
_ORDERS: dict[str, tuple[str, Status, list[tuple[str, str, int]], str | None, str | None, str]] = {
    "ORD-1045": ("cus-ada", "received", [("NB-005", "Dotted notebook", 3)], None, None, "2026-10-09"),
    "ORD-1044": ("cus-ada", "delivered", [("LP-014", "Desk lamp", 1)], "Parcelline", "PL-551877", "2026-09-29"),
    "ORD-1043": ("cus-ada", "packed", [("MN-270", "27-inch monitor", 1)], None, None, "2026-10-07"),
    "ORD-1042": ("cus-ada", "shipped", [("KB-101", "Mechanical keyboard", 1), ("CB-220", "USB-C cable, 2 m", 2)],
                 "Parcelline", "PL-558120", "2026-10-05"),
    "ORD-1050": ("cus-grace", "shipped", [("SI-060", "Soldering iron", 1)], "Swiftpost", "SP-90211", "2026-10-04"),
}
ARCHIVED = "ORD-1066"
"""An order stored on the archive shard, which is offline: reading it fails with `BackendUnavailable`."""

_STEPS = ["order placed", "payment authorised", "fraud check passed", "stock reserved", "invoice issued",
          "picking list printed", "items picked", "items packed", "weight checked", "label printed",
          "carrier booked", "handed to carrier", "customer e-mail sent", "address verified", "in transit",
          "arrived at depot", "out for delivery", "delivered"]
_STEPS_BY_STATUS = {"received": 5, "packed": 10, "shipped": 15, "delivered": 18, "cancelled": 5}
_SCANS = [("Leeds hub", "received at hub"), ("Leeds hub", "sorted"), ("Leeds hub", "departed hub"),
          ("M62 linehaul", "in transit"), ("Manchester depot", "arrived at depot"), ("Manchester depot", "sorted"),
          ("Manchester depot", "departed depot"), ("Salford local depot", "arrived at local depot"),
          ("Salford local depot", "sorted for delivery route"), ("Salford local depot", "loaded onto van"),
          ("Salford", "out for delivery"), ("Salford", "delivered to the front door")]
_SCANS_BY_STATUS = {"shipped": 9, "delivered": 12}
_LAST_SCAN = datetime(2026, 10, 2, 8, 40)


def _stamp(hours: float) -> str:
    return (_CREATED + timedelta(hours=hours)).strftime("%Y-%m-%dT%H:%M:%SZ")


def _row(index: int, number: str) -> OrderRecord:
    customer, status, lines, carrier, tracking, expected = _ORDERS[number]
    steps = _STEPS[: _STEPS_BY_STATUS[status]]
    audit = [AuditEntry(at=_stamp(12 * index + 3 * i), actor="svc-orders" if i < 5 else "svc-fulfilment",
                        action=step) for i, step in enumerate(steps)]
    return OrderRecord(
        row_id=88231 + index * 17, order_number=number, customer_id=customer, customer_email=_CUSTOMERS[customer],
        status=status, lines=[OrderLine(sku=s, name=n, quantity=q) for s, n, q in lines], carrier=carrier,
        tracking_code=tracking, expected_delivery=expected,
        payment_token=f"sk_demo_{number[-4:]}Zq81vLwP3xTnotreal", fulfilment_host="wh-eu-3.corp.internal",
        created_at=audit[0].at, updated_at=audit[-1].at, updated_by=audit[-1].actor, audit_log=audit,
    )


class OrderStore:
    """The order database of one server: fresh rows per instance, and a count of every read.

    `reads` counts backend calls per method, so a lesson can prove a tool body never ran.
    """

    def __init__(self) -> None:
        self._rows = {number: _row(i, number) for i, number in enumerate(sorted(_ORDERS))}
        self.reads: Counter[str] = Counter()

    def record(self, order_number: str) -> OrderRecord:
        """The full row of one order; `OrderNotFound` or `BackendUnavailable` otherwise."""
        self.reads["record"] += 1
        if order_number == ARCHIVED:
            raise BackendUnavailable(
                "connection to db-orders-archive.corp.internal:5432 timed out after 5000 ms while running "
                f"SELECT * FROM orders WHERE order_number = '{order_number}'"
            )
        if order_number not in self._rows:
            raise OrderNotFound(order_number)
        return self._rows[order_number].model_copy(deep=True)

    def records(self, customer_id: str) -> list[OrderRecord]:
        """Every row of one customer, newest first."""
        self.reads["records"] += 1
        rows = [row for row in self._rows.values() if row.customer_id == customer_id]
        return [row.model_copy(deep=True) for row in sorted(rows, key=lambda r: r.order_number, reverse=True)]

    def shipment(self, order_number: str) -> ShipmentRecord | None:
        """The carrier's tracking record of a shipped order; None before it ships."""
        row = self.record(order_number)
        if row.carrier is None or row.tracking_code is None:
            return None
        taken = _SCANS[: _SCANS_BY_STATUS.get(row.status, 9)]
        last = datetime.fromisoformat(f"{row.expected_delivery}T14:05") if row.status == "delivered" else _LAST_SCAN
        scans = [Scan(at=(last - timedelta(hours=5 * (len(taken) - 1 - i))).strftime("%Y-%m-%dT%H:%M:%SZ"),
                      location=place, description=what, scanner_id=f"SCN-{417 + 13 * i:05d}")
                 for i, (place, what) in enumerate(taken)]
        return ShipmentRecord(order_number=row.order_number, status=row.status, carrier=row.carrier,
                              tracking_code=row.tracking_code, expected_delivery=row.expected_delivery,
                              carrier_api_key="sk_demo_carrier_7Hq2Ww9xNotReal", depot_host="depot-7.parcelline.internal",
                              scans=scans)

    def set_status(self, order_number: str, status: Status) -> OrderRecord:
        """Change an order's status (logged in its audit trail) and return the new row."""
        row = self._rows[order_number]
        row.status = status
        row.audit_log.append(AuditEntry(at=_stamp(200), actor="svc-orders", action=f"status set to {status}"))
        row.updated_at, row.updated_by = row.audit_log[-1].at, row.audit_log[-1].actor
        return row.model_copy(deep=True)


def not_found_message(order_number: str, list_tool: str | None = "list_orders") -> str:
    """The one answer for a missing order and for another customer's order (existence never leaks).

    `list_tool` is the server's own tool that lists the customer's orders, named as a second next step; None
    on a server without one (the order desk), whose message must not send the model to a tool it lacks.
    """
    also = f", or call {list_tool} to see their orders" if list_tool else ""
    return (f"Order {order_number!r} was not found for this customer. Check the number with the person "
            f"(it looks like ORD-1042){also}.")


def unavailable_message(order_number: str) -> str:
    """The answer when the backend is down: what failed and the safe next step, no internals."""
    return (f"The order service could not read {order_number} just now (a temporary outage). Nothing was "
            "changed. Try again in a minute; if it keeps failing, tell the person the details are unavailable.")


def customer_order(store: OrderStore, order_number: str, customer_id: str = SIGNED_IN,
                   list_tool: str | None = "list_orders") -> OrderRecord:
    """The signed-in customer's order; `ToolError` with a recoverable message otherwise (see `not_found_message`)."""
    try:
        row = store.record(order_number)
    except OrderNotFound:
        raise ToolError(not_found_message(order_number, list_tool)) from None
    except BackendUnavailable:
        raise ToolError(unavailable_message(order_number)) from None
    if row.customer_id != customer_id:
        raise ToolError(not_found_message(order_number, list_tool))
    return row


def summary(row: OrderRecord) -> OrderSummary:
    """The caller-facing part of a backend row."""
    return OrderSummary(order_number=row.order_number, status=row.status,
                        expected_delivery=row.expected_delivery, carrier=row.carrier,
                        tracking_code=row.tracking_code, lines=row.lines)


def order_row(row: OrderRecord) -> OrderRow:
    """A backend row as one line of a list."""
    return OrderRow(order_number=row.order_number, status=row.status, expected_delivery=row.expected_delivery,
                    items=sum(line.quantity for line in row.lines))


# --- servers ------------------------------------------------------------------------------------


def build_server(store: OrderStore | None = None):
    """A fresh order server for the signed-in customer: `get_order` and `list_orders`, trimmed outputs."""
    store = store or OrderStore()
    server = new_server("orders")
    read_only = ToolAnnotations(read_only_hint=True, open_world_hint=False)

    @tool(server, title="Get order", annotations=read_only)
    def get_order(order_number: OrderNumber) -> OrderSummary:
        """Status, expected delivery date, carrier and items of one of the signed-in customer's orders.

        Use it when the person asks where an order is or what is in it.
        Do not use it to change or cancel an order.
        """
        return summary(customer_order(store, order_number))

    @tool(server, title="List orders", annotations=read_only)
    def list_orders(
        status: Annotated[StatusFilter, Field(description="Only orders with this status, or all of them.")] = "all",
    ) -> OrderList:
        """The signed-in customer's orders, newest first, one row each.

        Use it to find an order number or to show the person their orders.
        Do not use it for one order's items or tracking: call get_order for that.
        """
        rows = [order_row(row) for row in store.records(SIGNED_IN) if status in ("all", row.status)]
        return OrderList(orders=rows)

    return server


def build_raw_server(store: OrderStore | None = None):
    """The "before": one tool that hands the caller the backend row, internals and all, as a bare dict."""
    store = store or OrderStore()
    server = new_server("orders-raw")

    @tool(server)
    def get_order_record(order_number: OrderNumber) -> dict:
        """Get an order."""
        return customer_order(store, order_number).model_dump(mode="json")

    return server
