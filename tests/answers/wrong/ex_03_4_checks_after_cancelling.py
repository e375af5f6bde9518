"""Refuses unknown names only after the work is done: the refused call has already cancelled the order."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from course_lib import wire
from course_lib.servers import failures, orders

EXPECT = 'change nothing when a call is refused'


def answer():
    store = orders.OrderStore()
    server = MCPServer("cancel", log_level="WARNING")

    @server.tool()
    def cancel_order(ctx: Context, order_number: str,
                     dry_run: Annotated[bool, Field(strict=True)] = False) -> failures.CancelResult:
        """Cancel one unshipped order. Pass dry_run=true to only check."""
        result = failures.cancel(store, order_number, dry_run)
        unknown = sorted(set(wire.raw_arguments(ctx)) - {"order_number", "dry_run"})
        if unknown:
            raise ToolError(f"Unknown argument(s) {', '.join(unknown)}.")
        return result

    return server
