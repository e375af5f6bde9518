"""Returns a plain dict: the host gets no OrderSummary output schema to rely on."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import orders

EXPECT = "orders.OrderSummary"


def answer():
    store = orders.OrderStore()
    server = MCPServer("desk", log_level="WARNING")

    @server.tool()
    def get_order(order_number: str) -> dict:
        """Status and items of one of the signed-in customer's orders."""
        try:
            row = store.record(order_number)
        except orders.OrderNotFound:
            raise ToolError(f"Order {order_number} was not found.") from None
        if row.customer_id != orders.SIGNED_IN:
            raise ToolError(f"Order {order_number} was not found.")
        return orders.summary(row).model_dump(mode="json")

    return server
