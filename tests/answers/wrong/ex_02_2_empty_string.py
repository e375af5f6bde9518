"""Makes the error go away by inventing an empty tracking code instead of saying there is none."""

from mcp.server import MCPServer
from pydantic import BaseModel

from course_lib.servers import orders

EXPECT = "let the outputSchema allow null for tracking_code"


class OrderStatus(BaseModel):
    order_number: str
    status: orders.Status
    expected_delivery: str
    tracking_code: str


def answer():
    store = orders.OrderStore()
    server = MCPServer("order-status", log_level="WARNING")

    @server.tool()
    def get_order_status(order_number: str) -> OrderStatus:
        """Status, expected delivery date and tracking code of one order."""
        row = orders.customer_order(store, order_number)
        return OrderStatus(order_number=row.order_number, status=row.status,
                           expected_delivery=row.expected_delivery, tracking_code=row.tracking_code or "")

    return server
