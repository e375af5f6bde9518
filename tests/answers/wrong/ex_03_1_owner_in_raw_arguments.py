"""Schema takes only order_number, but the tool reads an unlisted `customer` argument the client sent and
acts for that customer: a caller who names the owner reads another customer's order."""

from mcp.server import MCPServer
from mcp.server.mcpserver import Context

from course_lib import wire
from course_lib.servers import orders

EXPECT = "both sent with customer="


def answer():
    store = orders.OrderStore()
    server = MCPServer("desk", log_level="WARNING")

    @server.tool()
    def get_order(ctx: Context, order_number: str) -> orders.OrderSummary:
        """Status and items of one of the signed-in customer's orders."""
        whose = wire.raw_arguments(ctx).get("customer", orders.SIGNED_IN)
        return orders.summary(orders.customer_order(store, order_number, str(whose)))

    return server
