"""The outage message adds 'try again later' to the not-found sentence: the model is told the order does not exist."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import orders

EXPECT = "the outage reads like the not-found answer"


def answer():
    store = orders.OrderStore()
    server = MCPServer("desk", log_level="WARNING")

    @server.tool()
    def get_order(order_number: str) -> orders.OrderSummary:
        """Status and items of one of the signed-in customer's orders."""
        gone = f"Order {order_number} was not found."
        try:
            row = store.record(order_number)
        except orders.OrderNotFound:
            raise ToolError(f"{gone} Check the number with the person.") from None
        except orders.BackendUnavailable:
            raise ToolError(f"{gone} Try again later.") from None
        if row.customer_id != orders.SIGNED_IN:
            raise ToolError(f"{gone} Check the number with the person.")
        return orders.summary(row)

    return server
