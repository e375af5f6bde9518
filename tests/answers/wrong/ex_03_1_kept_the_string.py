"""Raises ToolError for the failures but still returns the summary as a JSON string."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import orders

EXPECT = 'the outputSchema of -> orders.OrderSummary'


def answer():
    store = orders.OrderStore()
    server = MCPServer("desk", log_level="WARNING")

    @server.tool()
    def get_order(order_number: str) -> str:
        """Status and items of one of the signed-in customer's orders."""
        try:
            row = store.record(order_number)
        except orders.OrderNotFound:
            raise ToolError(f"Order {order_number} was not found.") from None
        if row.customer_id != orders.SIGNED_IN:
            raise ToolError(f"Order {order_number} was not found.")
        return orders.summary(row).model_dump_json()

    return server
