"""Handles not-found and foreign orders, but lets the outage escape as a plain exception (hidden message)."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import orders

EXPECT = "hidden crash"


def answer():
    store = orders.OrderStore()
    server = MCPServer("desk", log_level="WARNING")

    @server.tool()
    def get_order(order_number: str) -> orders.OrderSummary:
        """Status and items of one of the signed-in customer's orders."""
        missing = f"Order {order_number} was not found. Check the number with the person."
        try:
            row = store.record(order_number)
        except orders.OrderNotFound:
            raise ToolError(missing) from None
        if row.customer_id != orders.SIGNED_IN:
            raise ToolError(missing)
        return orders.summary(row)

    return server
