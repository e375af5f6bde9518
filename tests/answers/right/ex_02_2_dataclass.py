"""A dataclass with Union[str, None]."""

from dataclasses import dataclass
from typing import Union

from mcp.server import MCPServer

from course_lib.servers import orders


@dataclass
class Status:
    order_number: str
    status: str
    expected_delivery: str
    tracking_code: Union[str, None] = None


def answer():
    store = orders.OrderStore()
    server = MCPServer("order-status", log_level="WARNING")

    @server.tool()
    def get_order_status(order_number: str) -> Status:
        """Status of one order."""
        row = orders.customer_order(store, order_number)
        return Status(row.order_number, row.status, row.expected_delivery, row.tracking_code)

    return server
