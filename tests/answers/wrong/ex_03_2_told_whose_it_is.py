"""Leaks nothing literal, but tells the model that the order exists and belongs to someone else."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import orders

EXPECT = "answer another customer's order exactly as a missing one"


def answer():
    store = orders.OrderStore()
    server = MCPServer("desk", log_level="WARNING")

    @server.tool()
    def get_order(order_number: str) -> orders.OrderSummary:
        """Status and items of one of the signed-in customer's orders."""
        try:
            row = store.record(order_number)
        except orders.OrderNotFound:
            raise ToolError(f"Order {order_number} was not found. Check the number with the person.") from None
        except orders.BackendUnavailable:
            raise ToolError(f"Could not read {order_number} just now; try again in a minute.") from None
        if row.customer_id != orders.SIGNED_IN:
            raise ToolError(f"Order {order_number} belongs to another customer, so it cannot be shown.")
        return orders.summary(row)

    return server
