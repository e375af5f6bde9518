"""Uses the course's own message functions with an owner check written out, and a pattern on the argument: the
lesson's words, not the answer's (red team 8, F4: customer_order's body written out)."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from course_lib.servers import orders

EXPECT = "found orders.not_found_message, orders.unavailable_message called"


def answer():
    store = orders.OrderStore()
    server = MCPServer("desk", log_level="WARNING")

    @server.tool()
    def get_order(order_number: Annotated[str, Field(pattern=r"^ORD-\d{4}$")]) -> orders.OrderSummary:
        """Status and items of one of the signed-in customer's orders."""
        try:
            row = store.record(order_number)
        except orders.BackendUnavailable:
            raise ToolError(orders.unavailable_message(order_number)) from None
        except orders.OrderNotFound:
            row = None
        if row is None or row.customer_id != orders.SIGNED_IN:
            raise ToolError(orders.not_found_message(order_number, list_tool=None))
        return orders.summary(row)

    return server
