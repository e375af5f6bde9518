"""Refuses unknown names and loose booleans, but the schema gains a third parameter, notify_customer."""

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from pydantic import StrictBool

from course_lib.servers import failures, orders

EXPECT = "cancel_order takes dry_run, notify_customer, order_number"


def answer():
    store = orders.OrderStore()
    server = MCPServer("cancel", log_level="WARNING")

    @server.tool()
    def cancel_order(order_number: str, ctx: Context, dry_run: StrictBool = False,
                     notify_customer: StrictBool = True) -> failures.CancelResult:
        """Cancel one unshipped order. Pass dry_run=true to only check; notify_customer=false to stay quiet."""
        failures.require_known_arguments(ctx, "cancel_order", ("order_number", "dry_run", "notify_customer"))
        return failures.cancel(store, order_number, dry_run)

    return server
