"""Declares the field nullable but still fills in a placeholder text."""

from pydantic import BaseModel

from mcp.server import MCPServer

from course_lib.servers import orders

EXPECT = "found tracking_code 'not shipped yet'"


class OrderStatus(BaseModel):
    order_number: str
    status: str
    expected_delivery: str
    tracking_code: str | None = None


def answer():
    store = orders.OrderStore()
    server = MCPServer("order-status", log_level="WARNING")

    @server.tool()
    def get_order_status(order_number: str) -> OrderStatus:
        """Status of one order."""
        row = orders.customer_order(store, order_number)
        return OrderStatus(order_number=row.order_number, status=row.status, expected_delivery=row.expected_delivery,
                           tracking_code=row.tracking_code or "not shipped yet")

    return server
