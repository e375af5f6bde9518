"""Forgets the unshipped case: the tool crashes on None (a hidden error)."""

from pydantic import BaseModel

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import orders

EXPECT = "a hidden crash"


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
        s = rec.scans[-1]
        return Tracking(order_number=order_number, status=rec.status, expected_delivery=rec.expected_delivery,
                        carrier=rec.carrier, tracking_code=rec.tracking_code,
                        latest_scan=LatestScan(at=s.at, location=s.location, description=s.description))

    return server
