"""Passes the backend's own message on: the model reads an e-mail address, SQL and a host name."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import orders

EXPECT = 'keep SQL, host names, e-mail addresses'


def answer():
    store = orders.OrderStore()
    server = MCPServer("desk", log_level="WARNING")

    @server.tool()
    def get_order(order_number: str) -> orders.OrderSummary:
        """Status and items of one of the signed-in customer's orders."""
        try:
            row = store.record(order_number)
        except (orders.OrderNotFound, orders.BackendUnavailable) as error:
            raise ToolError(f"{type(error).__name__}: {error}. Try again or check the number with the person.") from None
        if row.customer_id != orders.SIGNED_IN:
            raise ToolError(f"{order_number} belongs to {row.customer_email}. Check the number with the person.")
        return orders.summary(row)

    return server
