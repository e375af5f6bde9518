"""Optional[str] with no default, model built with model_validate."""

from typing import Optional

from pydantic import BaseModel

from mcp.server import MCPServer

from course_lib.servers import orders


class OrderStatus(BaseModel):
    order_number: str
    status: str
    expected_delivery: str
    tracking_code: Optional[str]


def answer():
    store = orders.OrderStore()
    server = MCPServer("order-status", log_level="WARNING")

    @server.tool()
    def get_order_status(order_number: str) -> OrderStatus:
        """Status of one order."""
        row = orders.customer_order(store, order_number)
        return OrderStatus.model_validate(row.model_dump(include={"order_number", "status", "expected_delivery",
                                                                  "tracking_code"}))

    return server
