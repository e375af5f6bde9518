"""Right: the model has the four fields, and a second text block tells the model what is in the parcel (the
lines, which lesson 02's OrderSummary shows callers)."""

from mcp.server import MCPServer
from mcp_types import CallToolResult, TextContent
from pydantic import BaseModel

from course_lib.servers import orders

class OrderStatus(BaseModel):
    order_number: str
    status: orders.Status
    expected_delivery: str
    tracking_code: str | None = None

def answer():
    store = orders.OrderStore()
    server = MCPServer("order-status", log_level="WARNING")

    @server.tool()
    def get_order_status(order_number: str) -> OrderStatus:
        """Status, expected delivery date and tracking code of one order."""
        row = orders.customer_order(store, order_number)
        found = OrderStatus(order_number=row.order_number, status=row.status, expected_delivery=row.expected_delivery,
                            tracking_code=row.tracking_code)
        contents = ", ".join(line.name for line in row.lines)
        return CallToolResult(content=[TextContent(type="text", text=found.model_dump_json()),
                                       TextContent(type="text", text=f"The parcel holds: {contents}.")],
                              structured_content=found.model_dump())

    return server
