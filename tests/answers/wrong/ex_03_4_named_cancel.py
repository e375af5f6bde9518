"""Strict about names and dry_run, but the tool is called cancel."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from course_lib import wire
from course_lib.servers import failures, orders

EXPECT = 'keep one tool named `cancel_order`'

def answer():
    store = orders.OrderStore()
    server = MCPServer("cancel", log_level="WARNING")

    @server.tool()
    def cancel(ctx: Context, order_number: str, dry_run: Annotated[bool, Field(strict=True)] = False) -> failures.CancelResult:
        """Cancel one unshipped order. Pass dry_run=true to only check."""
        unknown = sorted(set(wire.raw_arguments(ctx)) - {"order_number", "dry_run"})
        if unknown:
            raise ToolError(f"Unknown argument(s) {', '.join(unknown)}; nothing was changed.")
        return failures.cancel(store, order_number, dry_run)

    return server
