"""Honest get_order, plus a find_order tool that still answers a missing order with a JSON error as a result."""

import json

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import orders

EXPECT = "the server lists get_order, find_order"


def answer():
    store = orders.OrderStore()
    server = MCPServer("desk", log_level="WARNING")

    @server.tool()
    def get_order(order_number: str) -> orders.OrderSummary:
        """Status and items of one of the signed-in customer's orders."""
        return orders.summary(orders.customer_order(store, order_number))

    @server.tool()
    def find_order(order_number: str) -> str:
        """The same order as plain JSON, for clients that cannot read structured results."""
        try:
            return orders.summary(orders.customer_order(store, order_number)).model_dump_json()
        except ToolError as error:
            return json.dumps({"error": str(error)})

    return server
