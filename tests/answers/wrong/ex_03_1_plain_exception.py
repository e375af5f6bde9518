"""Raises ValueError: isError is true now, but the SDK hides the message from the model."""

from mcp.server import MCPServer

from course_lib.servers import orders

EXPECT = 'hidden crash'


def answer():
    store = orders.OrderStore()
    server = MCPServer("desk", log_level="WARNING")

    @server.tool()
    def get_order(order_number: str) -> orders.OrderSummary:
        """Status and items of one of the signed-in customer's orders."""
        try:
            row = store.record(order_number)
        except orders.OrderNotFound:
            raise ValueError(f"Order {order_number} was not found.") from None
        if row.customer_id != orders.SIGNED_IN:
            raise ValueError(f"Order {order_number} was not found.")
        return orders.summary(row)

    return server
