"""Checks the raw dry_run value's JSON type itself, with a plain bool parameter."""

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError

from course_lib import wire
from course_lib.servers import failures, orders

ALLOWED = ("order_number", "dry_run")


def answer():
    store = orders.OrderStore()
    server = MCPServer("cancel", log_level="WARNING")

    @server.tool()
    def cancel_order(ctx: Context, order_number: str, dry_run: bool = False) -> failures.CancelResult:
        """Cancel one unshipped order. Pass dry_run=true to only check."""
        raw = wire.raw_arguments(ctx)
        for name in raw:
            if name not in ALLOWED:
                raise ToolError(f"Unexpected argument {name!r}; cancel_order takes only order_number and dry_run.")
        if "dry_run" in raw and type(raw["dry_run"]) is not bool:
            raise ToolError(f"dry_run must be true or false, not {raw['dry_run']!r}. Nothing was cancelled.")
        return failures.cancel(store, order_number, dry_run)

    return server
