"""Declares a trimmed model but returns a dict built from the carrier's record: the text keeps everything."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel

from course_lib.servers import orders

EXPECT = "the carrier's API key in the text content"


class LatestScan(BaseModel):
    at: str
    location: str
    description: str


class Tracking(BaseModel):
    order_number: str
    status: orders.Status
    expected_delivery: str
    carrier: str
    tracking_code: str
    latest_scan: LatestScan


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
        data = record.model_dump(mode="json")
        return {**data, "latest_scan": data["scans"][-1]}

    return server
