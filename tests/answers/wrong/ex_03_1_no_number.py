"""A deliberate tool error, but the message does not say which order failed."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import orders

EXPECT = "names the order number"


def answer():
    store = orders.OrderStore()
    server = MCPServer("desk", log_level="WARNING")

    @server.tool()
    def get_order(order_number: str) -> orders.OrderSummary:
        """Status and items of one of the signed-in customer's orders."""
        try:
            row = store.record(order_number)
        except orders.OrderNotFound:
            raise ToolError("Order not found.") from None
        if row.customer_id != orders.SIGNED_IN:
            raise ToolError("Order not found.")
        return orders.summary(row)

    return server
