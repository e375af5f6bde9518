"""Tells the model that ORD-1050 exists and belongs to someone else: a different answer from a missing order."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import orders

EXPECT = "the same answer as a missing one"


def answer():
    store = orders.OrderStore()
    server = MCPServer("desk", log_level="WARNING")

    @server.tool()
    def get_order(order_number: str) -> orders.OrderSummary:
        """Status and items of one of the signed-in customer's orders."""
        try:
            row = store.record(order_number)
        except orders.OrderNotFound:
            raise ToolError(f"Order {order_number} was not found.") from None
        if row.customer_id != orders.SIGNED_IN:
            raise ToolError(f"Order {order_number} belongs to another customer.")
        return orders.summary(row)

    return server
