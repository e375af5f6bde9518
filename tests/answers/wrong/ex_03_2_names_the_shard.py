"""Leaves out the SQL and the domain, but still names the backend's host for the outage."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import orders

EXPECT = "a host name (db-orders-archive)"


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
        except orders.BackendUnavailable:
            raise ToolError(f"Order {order_number} is on db-orders-archive, which is down; try again later.") from None
        if row.customer_id != orders.SIGNED_IN:
            raise ToolError(missing)
        return orders.summary(row)

    return server
