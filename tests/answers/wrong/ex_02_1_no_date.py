"""The not-shipped error names the order but not when it is expected."""

from pydantic import BaseModel

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import orders

EXPECT = "should name it and 2026-10-07"


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
        orders.customer_order(store, order_number)
        rec = store.shipment(order_number)
        if rec is None:
            raise ToolError(f"{order_number} has not shipped yet.")
        s = rec.scans[-1]
        return Tracking(order_number=order_number, status=rec.status, expected_delivery=rec.expected_delivery,
                        carrier=rec.carrier, tracking_code=rec.tracking_code,
                        latest_scan=LatestScan(at=s.at, location=s.location, description=s.description))

    return server
