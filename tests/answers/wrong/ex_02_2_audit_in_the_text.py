"""The model has the four fields, but a second text block tells the model who last touched the order and when
(the audit log, which lesson 02's OrderSummary leaves out)."""

from mcp.server import MCPServer
from mcp_types import CallToolResult, TextContent
from pydantic import BaseModel

from course_lib.servers import orders

EXPECT = "of the row in the text content of get_order_status('ORD-1042')"


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
        last = row.audit_log[-1]
        return CallToolResult(content=[TextContent(type="text", text=found.model_dump_json()),
                                       TextContent(type="text", text=f"Last change: {last.action} by {last.actor} at {last.at}.")],
                              structured_content=found.model_dump())

    return server
