"""Reads the store directly: an unknown order crashes with a hidden error."""

from pydantic import BaseModel

from mcp.server import MCPServer

from course_lib.servers import orders

EXPECT = "a hidden crash"


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
        row = store.record(order_number)
        return OrderStatus(order_number=row.order_number, status=row.status, expected_delivery=row.expected_delivery,
                           tracking_code=row.tracking_code)

    return server
