"""tell_ verb, a message with the date written out, the scan as one nested dict."""

from datetime import date

from pydantic import BaseModel

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import orders


class Shipment(BaseModel):
    number: str
    status: str
    due: date
    carrier: str
    tracking: str
    last_seen: dict[str, str]


def answer():
    store = orders.OrderStore()
    server = MCPServer("tracking", log_level="WARNING")

    @server.tool()
    def track_order(order_number: str) -> Shipment:
        """Where the parcel is."""
        row = orders.customer_order(store, order_number)
        rec = store.shipment(order_number)
        if rec is None:
            due = date.fromisoformat(row.expected_delivery)
            raise ToolError(f"{order_number} is still at the warehouse; it should arrive on {due.day} {due:%B}.")
        s = rec.scans[-1]
        return Shipment(number=rec.order_number, status=rec.status, due=date.fromisoformat(rec.expected_delivery),
                        carrier=rec.carrier, tracking=rec.tracking_code,
                        last_seen={"at": s.at, "where": s.location, "what": s.description})

    return server
