"""Reads any customer's order: ORD-1050 (another customer's) is shown."""

from pydantic import BaseModel

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import orders

EXPECT = "ORD-1050 is another customer's order"


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
        try:
            row = store.record(order_number)
        except orders.OrderNotFound:
            raise ToolError(orders.not_found_message(order_number)) from None
        return OrderStatus(order_number=row.order_number, status=row.status, expected_delivery=row.expected_delivery,
                           tracking_code=row.tracking_code)

    return server
