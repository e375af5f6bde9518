"""Refuses the one misspelling it saw (dryRun); dry-run and other names still slip through."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from course_lib import wire
from course_lib.servers import failures, orders

EXPECT = "dry-run"


def answer():
    store = orders.OrderStore()
    server = MCPServer("cancel", log_level="WARNING")

    @server.tool()
    def cancel_order(ctx: Context, order_number: str,
                     dry_run: Annotated[bool, Field(strict=True)] = False) -> failures.CancelResult:
        """Cancel one unshipped order. Pass dry_run=true to only check."""
        if "dryRun" in wire.raw_arguments(ctx):
            raise ToolError("Unknown argument dryRun; use dry_run.")
        return failures.cancel(store, order_number, dry_run)

    return server
