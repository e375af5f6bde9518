"""Sends the model to list_orders, a tool the order desk does not have (the lesson's old message did)."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import orders

EXPECT = "names list_orders, which the desk does not have"


def answer():
    store = orders.OrderStore()
    server = MCPServer("desk", log_level="WARNING")

    @server.tool()
    def get_order(order_number: str) -> orders.OrderSummary:
        """Status and items of one of the signed-in customer's orders."""
        missing = f"Order {order_number} was not found. Check the number with the person, or call list_orders."
        try:
            row = store.record(order_number)
        except orders.OrderNotFound:
            raise ToolError(missing) from None
        except orders.BackendUnavailable:
            raise ToolError(f"Order {order_number} could not be read just now; try again in a minute.") from None
        if row.customer_id != orders.SIGNED_IN:
            raise ToolError(missing)
        return orders.summary(row)

    return server
