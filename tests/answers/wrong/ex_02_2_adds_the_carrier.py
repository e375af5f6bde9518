"""Fixes tracking_code, and adds the carrier (the backend's row field) because it seems useful."""

from mcp.server import MCPServer
from pydantic import BaseModel

from course_lib.servers import orders

EXPECT = "the outputSchema has carrier as well"


class OrderStatus(BaseModel):
    order_number: str
    status: orders.Status
    expected_delivery: str
    tracking_code: str | None = None
    carrier: str | None = None


def answer():
    store = orders.OrderStore()
    server = MCPServer("order-status", log_level="WARNING")

    @server.tool()
    def get_order_status(order_number: str) -> OrderStatus:
        """Status, expected delivery, tracking code and carrier of one order."""
        row = orders.customer_order(store, order_number)
        return OrderStatus(order_number=row.order_number, status=row.status, expected_delivery=row.expected_delivery,
                           tracking_code=row.tracking_code, carrier=row.carrier)

    return server
