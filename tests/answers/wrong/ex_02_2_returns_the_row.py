"""A fixed model, but the tool returns the backend's row: structuredContent is trimmed, the text holds it all."""

from mcp.server import MCPServer
from pydantic import BaseModel

from course_lib.servers import orders

EXPECT = "the e-mail 'ada.lovelace@example.com' in the text content"


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
        return orders.customer_order(store, order_number).model_dump(mode="json")

    return server
