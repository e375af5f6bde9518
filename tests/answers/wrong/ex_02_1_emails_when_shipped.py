"""Trims the result well, but the not-shipped refusal names the customer's e-mail address."""

from typing import TypedDict

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import orders

EXPECT = "the customer's e-mail in the text content of track_order('ORD-1043')"


class TrackingInfo(TypedDict):
    order_number: str
    status: str
    expected_delivery: str
    carrier: str
    tracking_code: str
    last_scan_at: str
    last_scan_location: str
    last_scan_description: str


def answer():
    store = orders.OrderStore()
    server = MCPServer("tracking", log_level="WARNING")

    @server.tool()
    def track_order(order_number: str) -> TrackingInfo:
        """Tracking summary of one order."""
        row = orders.customer_order(store, order_number)
        rec = store.shipment(order_number)
        if rec is None:
            raise ToolError(f"{order_number} has not shipped yet; it is expected on {row.expected_delivery}. "
                            f"We will e-mail {row.customer_email} when it leaves the warehouse.")
        last = rec.scans[-1]
        return {"order_number": order_number, "status": rec.status, "expected_delivery": rec.expected_delivery,
                "carrier": rec.carrier, "tracking_code": rec.tracking_code, "last_scan_at": last.at,
                "last_scan_location": last.location, "last_scan_description": last.description}

    return server
