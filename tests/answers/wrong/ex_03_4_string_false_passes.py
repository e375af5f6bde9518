"""Refuses strings other than 'true' and 'false', so the string "false" still reads as a boolean."""

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError

from course_lib import wire
from course_lib.servers import failures, orders

EXPECT = 'dry_run="false" must be refused'


def answer():
    store = orders.OrderStore()
    server = MCPServer("cancel", log_level="WARNING")

    @server.tool()
    def cancel_order(ctx: Context, order_number: str, dry_run: bool = False) -> failures.CancelResult:
        """Cancel one unshipped order. Pass dry_run=true to only check."""
        raw = wire.raw_arguments(ctx)
        unknown = sorted(set(raw) - {"order_number", "dry_run"})
        if unknown:
            raise ToolError(f"Unknown argument(s) {', '.join(unknown)}.")
        value = raw.get("dry_run", False)
        if not isinstance(value, bool) and value not in ("true", "false"):
            raise ToolError(f"dry_run must be true or false, not {value!r}.")
        return failures.cancel(store, order_number, dry_run)

    return server
