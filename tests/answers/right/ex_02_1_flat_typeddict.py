"""A flat TypedDict, scan fields at top level, dict built by hand."""

from typing import TypedDict

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import orders


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
            raise ToolError(f"{order_number} has not left the warehouse; it should arrive by {row.expected_delivery}.")
        last = max(rec.scans, key=lambda scan: scan.at)
        return {"order_number": order_number, "status": rec.status, "expected_delivery": rec.expected_delivery,
                "carrier": rec.carrier, "tracking_code": rec.tracking_code, "last_scan_at": last.at,
                "last_scan_location": last.location, "last_scan_description": last.description}

    return server
