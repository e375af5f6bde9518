"""One message for every failure: the outage reads like a missing order."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import orders

EXPECT = "rather than a missing order"


def answer():
    store = orders.OrderStore()
    server = MCPServer("desk", log_level="WARNING")

    @server.tool()
    def get_order(order_number: str) -> orders.OrderSummary:
        """Status and items of one of the signed-in customer's orders."""
        message = f"Order {order_number} is not available. Try again later or check the number with the person."
        try:
            row = store.record(order_number)
        except (orders.OrderNotFound, orders.BackendUnavailable):
            raise ToolError(message) from None
        if row.customer_id != orders.SIGNED_IN:
            raise ToolError(message)
        return orders.summary(row)

    return server
