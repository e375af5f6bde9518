"""Allows null for the tracking code, but reports every order as shipped."""

from mcp.server import MCPServer
from pydantic import BaseModel

from course_lib.servers import orders

EXPECT = "succeed for every order"


def answer():
    store = orders.OrderStore()
    server = MCPServer("order-status", log_level="WARNING")

    class OrderStatus(BaseModel):
        order_number: str
        status: orders.Status
        expected_delivery: str
        tracking_code: str | None = None

    @server.tool()
    def get_order_status(order_number: str) -> OrderStatus:
        """Status, expected delivery date and tracking code of one order."""
        row = orders.customer_order(store, order_number)
        return OrderStatus(order_number=row.order_number, status="shipped",
                           expected_delivery=row.expected_delivery, tracking_code=row.tracking_code)

    return server
