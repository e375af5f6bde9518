"""Refuses the one foreign order it knows of by number instead of comparing the customer."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import orders

EXPECT = "another customer's order"


def answer():
    store = orders.OrderStore()
    server = MCPServer("desk", log_level="WARNING")

    @server.tool()
    def get_order(order_number: str) -> orders.OrderSummary:
        """Status and items of one of the signed-in customer's orders."""
        if order_number == "ORD-1050":
            raise ToolError(f"Order {order_number} was not found.")
        try:
            return orders.summary(store.record(order_number))
        except orders.OrderNotFound:
            raise ToolError(f"Order {order_number} was not found.") from None

    return server
