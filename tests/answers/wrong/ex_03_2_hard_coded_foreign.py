"""Hides the one foreign order it knows of by number; any other customer's order is shown."""

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
        missing = f"Order {order_number} was not found. Check the number with the person."
        if order_number == "ORD-1050":
            raise ToolError(missing)
        try:
            return orders.summary(store.record(order_number))
        except orders.OrderNotFound:
            raise ToolError(missing) from None
        except orders.BackendUnavailable:
            raise ToolError(f"Order {order_number} could not be read just now; try again in a minute.") from None

    return server
