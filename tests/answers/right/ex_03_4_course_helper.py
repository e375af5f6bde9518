"""Uses failures.require_known_arguments and pydantic's StrictBool."""

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from pydantic import StrictBool

from course_lib.servers import failures, orders


def answer():
    store = orders.OrderStore()
    server = MCPServer("cancel", log_level="WARNING")

    @server.tool()
    def cancel_order(order_number: str, ctx: Context, dry_run: StrictBool = False) -> failures.CancelResult:
        """Cancel one unshipped order. Pass dry_run=true to only check."""
        failures.require_known_arguments(ctx, "cancel_order", ("order_number", "dry_run"))
        return failures.cancel(store, order_number, dry_run)

    return server
