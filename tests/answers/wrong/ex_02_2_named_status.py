"""Fixes the model, but registers the tool as order_status."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel, Field

from course_lib.servers import orders

EXPECT = 'register a tool named get_order_status'

def answer():
    store = orders.OrderStore()
    server = MCPServer("order-status", log_level="WARNING")

    class OrderStatus(BaseModel):
        order_number: str
        status: orders.Status
        expected_delivery: str
        tracking_code: str | None = None

    @server.tool()
    def order_status(order_number: str) -> OrderStatus:
        """Status, expected delivery date and tracking code of one order."""
        row = orders.customer_order(store, order_number)
        return OrderStatus(order_number=row.order_number, status=row.status,
                           expected_delivery=row.expected_delivery, tracking_code=row.tracking_code)

    return server
