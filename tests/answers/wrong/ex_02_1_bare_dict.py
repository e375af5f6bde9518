"""Returns the right fields, but as a bare dict: no outputSchema, so the host gets text only."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import orders

EXPECT = "return your own typed model"


def answer():
    store = orders.OrderStore()
    server = MCPServer("tracking", log_level="WARNING")

    @server.tool()
    def track_order(order_number: str) -> dict:
        """Where a parcel is now."""
        orders.customer_order(store, order_number)
        record = store.shipment(order_number)
        if record is None:
            raise ToolError(f"{order_number} has not shipped yet.")
        last = record.scans[-1]
        return {"order_number": record.order_number, "status": record.status,
                "expected_delivery": record.expected_delivery, "tracking_code": record.tracking_code,
                "latest_scan": {"at": last.at, "location": last.location, "description": last.description}}

    return server
