"""Serves only the order numbers it saw in the lesson, instead of asking the backend whose order it is."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import orders

EXPECT = "ORD-1047"
MINE = ("ORD-1042", "ORD-1043", "ORD-1044", "ORD-1045")


def answer():
    store = orders.OrderStore()
    server = MCPServer("desk", log_level="WARNING")

    @server.tool()
    def get_order(order_number: str) -> orders.OrderSummary:
        """Status and items of one of the signed-in customer's orders."""
        if order_number not in MINE:
            raise ToolError(f"Order {order_number} was not found.")
        return orders.summary(store.record(order_number))

    return server
