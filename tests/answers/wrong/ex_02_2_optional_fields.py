"""Makes every field optional so nothing can fail: a host can no longer rely on a status or a date."""

from mcp.server import MCPServer
from pydantic import BaseModel

from course_lib.servers import orders

EXPECT = "status: optional"


def answer():
    store = orders.OrderStore()
    server = MCPServer("order-status", log_level="WARNING")

    class OrderStatus(BaseModel):
        order_number: str
        status: orders.Status | None = None
        expected_delivery: str | None = None
        tracking_code: str | None = None

    @server.tool()
    def get_order_status(order_number: str) -> OrderStatus:
        """Status, expected delivery date and tracking code of one order."""
        row = orders.customer_order(store, order_number)
        return OrderStatus(order_number=row.order_number, status=row.status,
                           expected_delivery=row.expected_delivery, tracking_code=row.tracking_code)

    return server
