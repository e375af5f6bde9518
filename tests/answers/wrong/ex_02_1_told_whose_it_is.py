"""Says that the foreign order belongs to someone else (an existence leak)."""

from pydantic import BaseModel

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import orders

EXPECT = "answer another customer's order (ORD-1050) exactly as a missing one"


class LatestScan(BaseModel):
    at: str
    location: str
    description: str


class Tracking(BaseModel):
    order_number: str
    status: str
    expected_delivery: str
    carrier: str
    tracking_code: str
    latest_scan: LatestScan


def answer():
    store = orders.OrderStore()
    server = MCPServer("tracking", log_level="WARNING")

    @server.tool()
    def track_order(order_number: str) -> Tracking:
        """Tracking."""
        try:
            row = store.record(order_number)
        except orders.OrderNotFound:
            raise ToolError(f"Order {order_number} was not found.") from None
        if row.customer_id != orders.SIGNED_IN:
            raise ToolError(f"Order {order_number} belongs to another customer.")
        rec = store.shipment(order_number)
        if rec is None:
            raise ToolError(f"{order_number} has not shipped; expected {row.expected_delivery}.")
        s = rec.scans[-1]
        return Tracking(order_number=order_number, status=rec.status, expected_delivery=rec.expected_delivery,
                        carrier=rec.carrier, tracking_code=rec.tracking_code,
                        latest_scan=LatestScan(at=s.at, location=s.location, description=s.description))

    return server
