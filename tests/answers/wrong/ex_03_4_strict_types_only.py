"""Makes dry_run strict but still lets the SDK drop unknown argument names."""

from typing import Annotated

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import failures, orders

EXPECT = '{"order_number": "ORD-1043", "dryRun": true} must be refused'


def answer():
    store = orders.OrderStore()
    server = MCPServer("cancel", log_level="WARNING")

    @server.tool()
    def cancel_order(order_number: str, dry_run: Annotated[bool, Field(strict=True)] = False) -> failures.CancelResult:
        """Cancel one unshipped order. Pass dry_run=true to only check."""
        return failures.cancel(store, order_number, dry_run)

    return server
