"""Types tracking_code as a str with a default of "" in the schema, but returns None: no null in the schema."""

from typing import Any

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel, Field

from course_lib.servers import orders

EXPECT = 'let the outputSchema allow null for tracking_code'

def answer():
    store = orders.OrderStore()
    server = MCPServer("order-status", log_level="WARNING")

    class OrderStatus(BaseModel):
        order_number: str
        status: orders.Status
        expected_delivery: str
        tracking_code: Any = Field(default=None, json_schema_extra={"type": "string"})

    @server.tool()
    def get_order_status(order_number: str) -> OrderStatus:
        """Status, expected delivery date and tracking code of one order."""
        row = orders.customer_order(store, order_number)
        return OrderStatus(order_number=row.order_number, status=row.status,
                           expected_delivery=row.expected_delivery, tracking_code=row.tracking_code)

    return server
