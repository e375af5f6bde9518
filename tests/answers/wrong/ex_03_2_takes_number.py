"""Helpful messages, but the parameter is called number."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import orders

EXPECT = 'keep one tool named `get_order`'

def answer():
    store = orders.OrderStore()
    server = MCPServer("desk", log_level="WARNING")

    @server.tool()
    def get_order(number: str) -> orders.OrderSummary:
        """Status and items of one of the signed-in customer's orders."""
        not_found = f"Order {number} was not found for this customer. Check the number with the person."
        try:
            row = store.record(number)
        except orders.OrderNotFound:
            raise ToolError(not_found) from None
        except orders.BackendUnavailable:
            raise ToolError(f"The order service could not read {number} just now; try again in a minute.") from None
        if row.customer_id != orders.SIGNED_IN:
            raise ToolError(not_found)
        return orders.summary(row)

    return server
