"""Keeps tracking_code: str and refuses unshipped orders with a ToolError instead."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel, Field

from course_lib.servers import orders

EXPECT = "let the outputSchema allow null for tracking_code"

def answer():
    store = orders.OrderStore()
    server = MCPServer("order-status", log_level="WARNING")

    class OrderStatus(BaseModel):
        order_number: str
        status: orders.Status
        expected_delivery: str
        tracking_code: str

    @server.tool()
    def get_order_status(order_number: str) -> OrderStatus:
        """Status, expected delivery date and tracking code of one order."""
        row = orders.customer_order(store, order_number)
        if row.tracking_code is None:
            raise ToolError(f"{order_number} has no tracking code yet.")
        return OrderStatus(order_number=row.order_number, status=row.status,
                           expected_delivery=row.expected_delivery, tracking_code=row.tracking_code)

    return server
