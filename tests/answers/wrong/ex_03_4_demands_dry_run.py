"""Insists on exactly the two names, so a plain call without dry_run is refused."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from course_lib import wire
from course_lib.servers import failures, orders

EXPECT = "without dry_run"


def answer():
    store = orders.OrderStore()
    server = MCPServer("cancel", log_level="WARNING")

    @server.tool()
    def cancel_order(ctx: Context, order_number: str,
                     dry_run: Annotated[bool, Field(strict=True)] = False) -> failures.CancelResult:
        """Cancel one unshipped order. Pass dry_run=true to only check."""
        names = set(wire.raw_arguments(ctx))
        if names != {"order_number", "dry_run"}:
            raise ToolError(f"cancel_order takes exactly order_number and dry_run, not {sorted(names)}.")
        return failures.cancel(store, order_number, dry_run)

    return server
