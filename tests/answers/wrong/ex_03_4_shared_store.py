"""Keeps the order store at module level: a second server sees the first one's cancellations."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from course_lib import wire
from course_lib.servers import failures, orders

EXPECT = "found a dry run of ORD-1043 shows it cancelled; a dry run of ORD-1045 shows it cancelled"

STORE = orders.OrderStore()


def answer():
    server = MCPServer("cancel", log_level="WARNING")

    @server.tool()
    def cancel_order(ctx: Context, order_number: str,
                     dry_run: Annotated[bool, Field(strict=True)] = False) -> failures.CancelResult:
        """Cancel one unshipped order. Pass dry_run=true to only check."""
        unknown = sorted(set(wire.raw_arguments(ctx)) - {"order_number", "dry_run"})
        if unknown:
            raise ToolError(f"Unknown argument(s) {', '.join(unknown)}.")
        return failures.cancel(STORE, order_number, dry_run)

    return server
