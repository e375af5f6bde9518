"""An unseen answer (round 9): its own flat model, built field by field, filled from the oldest scan. The earlier
scan is in its structuredContent, so the fix is in what fills the model, not in returning the model (the message
gave that advice, for the text content)."""

from pydantic import BaseModel

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import orders

EXPECT = ("an earlier scan (2026-09-30T16:40:00Z, received at hub) in structuredContent (your model holds it: fill "
          "its fields with only what the caller needs)")


class Tracking(BaseModel):
    order_number: str
    status: str
    expected_delivery: str
    carrier: str
    tracking_code: str
    scan_at: str
    scan_place: str
    scan_description: str


def answer() -> MCPServer:
    store = orders.OrderStore()
    server = MCPServer("tracking", log_level="WARNING")

    @server.tool()
    def track_order(order_number: str) -> Tracking:
        """Where one parcel is now."""
        row = orders.customer_order(store, order_number)
        ship = store.shipment(order_number)
        if ship is None:
            raise ToolError(f"Order {order_number} has not shipped yet; expected {row.expected_delivery}.")
        latest = ship.scans[0]
        return Tracking(order_number=ship.order_number, status=ship.status,
                        expected_delivery=ship.expected_delivery, carrier=ship.carrier,
                        tracking_code=ship.tracking_code, scan_at=latest.at,
                        scan_place=latest.location, scan_description=latest.description)

    return server
