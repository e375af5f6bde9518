"""get_order is orders.customer_order itself: right on every order, but the course's function did the work (red
team 6 c1 passed 3.1 this way before 3.1 forbade it, as 3.2 does)."""

from mcp.server import MCPServer

from course_lib.servers import orders

EXPECT = "found orders.customer_order called"


def answer():
    store = orders.OrderStore()
    server = MCPServer("desk", log_level="WARNING")

    @server.tool()
    def get_order(order_number: str) -> orders.OrderSummary:
        """Status and items of one of the signed-in customer's orders."""
        return orders.summary(orders.customer_order(store, order_number, orders.SIGNED_IN, None))

    return server
