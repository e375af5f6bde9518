"""Calls orders.customer_order, which already words every failure: the text says to read the backend yourself."""

from mcp.server import MCPServer

from course_lib.servers import orders

EXPECT = "found orders.customer_order called"


def answer():
    store = orders.OrderStore()
    server = MCPServer("desk", log_level="WARNING")

    @server.tool()
    def get_order(order_number: str) -> orders.OrderSummary:
        """Status and items of one of the signed-in customer's orders."""
        return orders.summary(orders.customer_order(store, order_number))

    return server
