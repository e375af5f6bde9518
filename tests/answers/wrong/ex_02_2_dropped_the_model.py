"""Silences the validation error by dropping the output model: nothing is checked, the host gets text only."""

from mcp.server import MCPServer

from course_lib.servers import orders

EXPECT = "keep a typed output model"


def answer():
    store = orders.OrderStore()
    server = MCPServer("order-status", log_level="WARNING")

    @server.tool()
    def get_order_status(order_number: str) -> dict:
        """Status, expected delivery date and tracking code of one order."""
        row = orders.customer_order(store, order_number)
        return {"order_number": row.order_number, "status": row.status,
                "expected_delivery": row.expected_delivery, "tracking_code": row.tracking_code}

    return server
