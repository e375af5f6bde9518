"""Trims the secrets but keeps every scan: the caller gets the whole history again."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel

from course_lib.servers import orders

EXPECT = "an earlier scan"


class ScanOut(BaseModel):
    at: str
    location: str
    description: str


class Tracking(BaseModel):
    order_number: str
    status: orders.Status
    expected_delivery: str
    carrier: str
    tracking_code: str
    scans: list[ScanOut]


def answer():
    store = orders.OrderStore()
    server = MCPServer("tracking", log_level="WARNING")

    @server.tool()
    def track_order(order_number: str) -> Tracking:
        """Where a parcel is now."""
        orders.customer_order(store, order_number)
        record = store.shipment(order_number)
        if record is None:
            raise ToolError(f"{order_number} has not shipped yet.")
        return Tracking(order_number=record.order_number, status=record.status,
                        expected_delivery=record.expected_delivery, carrier=record.carrier,
                        tracking_code=record.tracking_code,
                        scans=[ScanOut(at=s.at, location=s.location, description=s.description) for s in record.scans])

    return server
