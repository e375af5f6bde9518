"""A TypedDict, returning a plain dict; the fields in another order."""

from typing import TypedDict

from mcp.server import MCPServer

from course_lib.servers import orders


class OrderState(TypedDict):
    tracking_code: str | None
    status: str
    order_number: str
    expected_delivery: str


def answer():
    store = orders.OrderStore()
    server = MCPServer("order-status", log_level="WARNING")

    @server.tool()
    def get_order_status(order_number: str) -> OrderState:
        """Status of one order."""
        row = orders.customer_order(store, order_number)
        return {"order_number": row.order_number, "status": row.status,
                "expected_delivery": row.expected_delivery, "tracking_code": row.tracking_code}

    return server
