"""Every failure opens with the same sentence naming the order, then says what happened and what to do."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import orders


def answer():
    store = orders.OrderStore()
    server = MCPServer("desk", log_level="WARNING")

    @server.tool()
    def get_order(order_number: str) -> orders.OrderSummary:
        """Status and items of one of the signed-in customer's orders."""
        opening = f"Could not show order {order_number}."
        try:
            row = store.record(order_number)
        except orders.BackendUnavailable:
            raise ToolError(f"{opening} The order service is briefly unavailable; nothing changed. "
                            "Please try again shortly.") from None
        except orders.OrderNotFound:
            row = None
        if row is None or row.customer_id != orders.SIGNED_IN:
            raise ToolError(f"{opening} This customer has no such order: ask them for the right number.")
        return orders.summary(row)

    return server
