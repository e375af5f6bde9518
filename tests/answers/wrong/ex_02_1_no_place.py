"""Keeps only the scan's description: the caller cannot tell when or where."""

from pydantic import BaseModel

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import orders

EXPECT = "the latest scan's time of ORD-1042"


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


class Short(BaseModel):
    order_number: str
    status: str
    expected_delivery: str
    carrier: str
    tracking_code: str
    latest_scan: str


def answer():
    store = orders.OrderStore()
    server = MCPServer("tracking", log_level="WARNING")

    @server.tool()
    def track_order(order_number: str) -> Short:
        """Tracking."""
        row = orders.customer_order(store, order_number)
        rec = store.shipment(order_number)
        if rec is None:
            raise ToolError(f"{order_number} has not shipped; expected {row.expected_delivery}.")
        return Short(order_number=order_number, status=rec.status, expected_delivery=rec.expected_delivery,
                     carrier=rec.carrier, tracking_code=rec.tracking_code, latest_scan=rec.scans[-1].description)

    return server
