"""Refuses unknown names but keeps a lax dry_run, so "yes" and 1 still count as true."""

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError

from course_lib import wire
from course_lib.servers import failures, orders

EXPECT = 'dry_run="yes" must be refused'


def answer():
    store = orders.OrderStore()
    server = MCPServer("cancel", log_level="WARNING")

    @server.tool()
    def cancel_order(ctx: Context, order_number: str, dry_run: bool = False) -> failures.CancelResult:
        """Cancel one unshipped order. Pass dry_run=true to only check."""
        unknown = sorted(set(wire.raw_arguments(ctx)) - {"order_number", "dry_run"})
        if unknown:
            raise ToolError(f"Unknown argument(s) {', '.join(unknown)}.")
        return failures.cancel(store, order_number, dry_run)

    return server
