"""Helpful messages, but a found order comes back as a plain dict without the OrderSummary schema."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import orders

EXPECT = "still return the customer's own orders"

def answer():
    store = orders.OrderStore()
    server = MCPServer("desk", log_level="WARNING")

    @server.tool()
    def get_order(order_number: str) -> dict:
        """Status and items of one of the signed-in customer's orders."""
        not_found = f"Order {order_number} was not found for this customer. Check the number with the person."
        try:
            row = store.record(order_number)
        except orders.OrderNotFound:
            raise ToolError(not_found) from None
        except orders.BackendUnavailable:
            raise ToolError(f"The order service could not read {order_number} just now; try again in a minute.") from None
        if row.customer_id != orders.SIGNED_IN:
            raise ToolError(not_found)
        return {"order_number": row.order_number, "status": row.status}

    return server
