"""Helper functions build the messages; the outage says 'retry later' and warns against retrying for ever."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import orders


def not_found(number: str) -> ToolError:
    return ToolError(f"Order {number} is not one of this customer's orders. Please confirm the number with the customer.")


def outage(number: str) -> ToolError:
    return ToolError(f"{number} is stored on a shard that is offline right now, so nothing was read or changed. "
                     "Retry later; if it keeps failing, do not retry again but tell the person.")


def answer():
    store = orders.OrderStore()
    server = MCPServer("desk", log_level="WARNING")

    @server.tool(description="Status and items of one of the signed-in customer's orders.")
    def get_order(order_number: str) -> orders.OrderSummary:
        try:
            row = store.record(order_number)
        except orders.OrderNotFound:
            raise not_found(order_number) from None
        except orders.BackendUnavailable:
            raise outage(order_number) from None
        if row.customer_id != orders.SIGNED_IN:
            raise not_found(order_number)
        return orders.summary(row)

    return server
