"""Honest failures, but an optional `as_customer` lets the caller read anyone's order by naming them."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import orders

EXPECT = "get_order takes order_number, as_customer"


def answer():
    store = orders.OrderStore()
    server = MCPServer("desk", log_level="WARNING")

    @server.tool()
    def get_order(order_number: str, as_customer: str | None = None) -> orders.OrderSummary:
        """Status and items of one order; as_customer picks whose (the signed-in customer if left out)."""
        try:
            row = store.record(order_number)
        except orders.OrderNotFound:
            raise ToolError(f"Order {order_number} was not found.") from None
        if row.customer_id != (as_customer or orders.SIGNED_IN):
            raise ToolError(f"Order {order_number} was not found.")
        return orders.summary(row)

    return server
