"""A good result model, but the tool is called track and takes number."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel, Field

from course_lib.servers import orders

EXPECT = 'register a tool named track_order'

def answer():
    store = orders.OrderStore()
    server = MCPServer("tracking", log_level="WARNING")

    class Tracking(BaseModel):
        order_number: str
        status: str
        expected_delivery: str

    @server.tool()
    def track(number: str) -> Tracking:
        """Where a parcel is."""
        row = orders.customer_order(store, number)
        return Tracking(order_number=row.order_number, status=row.status, expected_delivery=row.expected_delivery)

    return server
