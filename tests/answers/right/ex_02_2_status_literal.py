"""Keeps the lesson's Status literal, Field(None) with a description, returns the model from a helper."""

from pydantic import BaseModel, Field

from mcp.server import MCPServer

from course_lib.servers import orders


class OrderStatus(BaseModel):
    order_number: str
    status: orders.Status
    expected_delivery: str
    tracking_code: str | None = Field(None, description="Carrier code; null until shipped")


def _status(row):
    return OrderStatus(order_number=row.order_number, status=row.status, expected_delivery=row.expected_delivery,
                       tracking_code=row.tracking_code)


def answer():
    store = orders.OrderStore()
    server = MCPServer("order-status", log_level="WARNING")

    @server.tool()
    def get_order_status(order_number: orders.OrderNumber) -> OrderStatus:
        """Status of one order."""
        return _status(orders.customer_order(store, order_number))

    return server
