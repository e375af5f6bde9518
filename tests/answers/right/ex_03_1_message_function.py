"""Checks the owner first in a try/else, with the message from a small function."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import orders


def missing(number: str) -> ToolError:
    return ToolError(f"There is no order '{number}' for the signed-in customer. Ask the person to check it.")


def answer():
    store = orders.OrderStore()
    server = MCPServer("desk", log_level="WARNING")

    @server.tool()
    def get_order(order_number: str) -> orders.OrderSummary:
        """Status and items of one of the signed-in customer's orders."""
        try:
            row = store.record(order_number)
        except LookupError:
            raise missing(order_number) from None
        else:
            if row.customer_id == orders.SIGNED_IN:
                return orders.summary(row)
            raise missing(order_number)

    return server
