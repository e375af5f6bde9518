"""Dataclasses, different field names, scan nested under 'now'."""

from dataclasses import dataclass

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import orders


@dataclass
class Where:
    when: str
    place: str
    what: str


@dataclass
class Parcel:
    order: str
    state: str
    arrives: str
    carrier: str
    code: str
    now: Where


def answer():
    store = orders.OrderStore()
    server = MCPServer("tracking", log_level="WARNING")

    @server.tool()
    def track_order(order_number: str) -> Parcel:
        """Where a parcel is now."""
        row = orders.customer_order(store, order_number)
        rec = store.shipment(order_number)
        if rec is None:
            raise ToolError(f"Order {order_number} is not shipped yet; expected delivery {row.expected_delivery}.")
        s = rec.scans[-1]
        return Parcel(order=rec.order_number, state=rec.status, arrives=rec.expected_delivery, carrier=rec.carrier,
                      code=rec.tracking_code, now=Where(when=s.at, place=s.location, what=s.description))

    return server
