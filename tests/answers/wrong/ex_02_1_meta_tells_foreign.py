"""Gives another customer's order the not-found text, but its _meta says why: a host or a log can tell them apart."""

import mcp_types
from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel

from course_lib.servers import orders

EXPECT = "ORD-1050 and ORD-9999 differ in _meta"


def answer():
    store = orders.OrderStore()
    server = MCPServer("tracking", log_level="WARNING")

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

    @server.tool()
    def track_order(order_number: str) -> Tracking:
        """Where one of the signed-in customer's parcels is now, and when it should arrive."""
        try:
            row = store.record(order_number)
        except orders.OrderNotFound:
            raise ToolError(f"No order {order_number} for this customer.") from None
        if row.customer_id != orders.SIGNED_IN:
            return mcp_types.CallToolResult(
                is_error=True, content=[mcp_types.TextContent(  # the very text a ToolError gives
                    type="text", text=f"Error executing tool track_order: No order {order_number} for this customer.")],
                _meta={"reason": "belongs to another customer"})
        record = store.shipment(order_number)
        if record is None:
            raise ToolError(f"{order_number} has not shipped yet; it is expected on {row.expected_delivery}.")
        last = record.scans[-1]
        return Tracking(order_number=record.order_number, status=record.status,
                        expected_delivery=record.expected_delivery, carrier=record.carrier,
                        tracking_code=record.tracking_code,
                        latest_scan=LatestScan(at=last.at, location=last.location, description=last.description))

    return server
