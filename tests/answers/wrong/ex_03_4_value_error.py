"""Refuses unknown names with a plain exception: the model reads only 'Error executing tool cancel_order'."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from pydantic import Field

from course_lib import wire
from course_lib.servers import failures, orders

EXPECT = "hidden crash"


def answer():
    store = orders.OrderStore()
    server = MCPServer("cancel", log_level="WARNING")

    @server.tool()
    def cancel_order(ctx: Context, order_number: str,
                     dry_run: Annotated[bool, Field(strict=True)] = False) -> failures.CancelResult:
        """Cancel one unshipped order. Pass dry_run=true to only check."""
        unknown = sorted(set(wire.raw_arguments(ctx)) - {"order_number", "dry_run"})
        if unknown:
            raise ValueError(f"Unknown argument(s) {', '.join(unknown)}.")
        return failures.cancel(store, order_number, dry_run)

    return server
