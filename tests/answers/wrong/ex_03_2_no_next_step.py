"""The not-found message names the order but gives no next step."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import orders

EXPECT = "no next step asks to check the number"


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
        except orders.BackendUnavailable:
            raise ToolError(f"Order {order_number} could not be read just now; try again in a minute.") from None
        if row.customer_id != orders.SIGNED_IN:
            raise ToolError(f"Order {order_number} was not found.")
        return orders.summary(row)

    return server
