"""Other wording throughout: 'Wait a minute, then call get_order again' for the outage."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import orders


def answer():
    store = orders.OrderStore()
    server = MCPServer("desk", log_level="WARNING")

    @server.tool()
    def get_order(order_number: str) -> orders.OrderSummary:
        """Status and items of one of the signed-in customer's orders."""
        unknown = f"No order {order_number} exists for this customer: check the number with the person."
        try:
            row = store.record(order_number)
        except orders.OrderNotFound:
            raise ToolError(unknown) from None
        except orders.BackendUnavailable:
            raise ToolError(f"The order system is temporarily down while reading {order_number}. "
                            "Wait a minute, then call get_order again.") from None
        if row.customer_id != orders.SIGNED_IN:
            raise ToolError(unknown)
        return orders.summary(row)

    return server
