"""An unseen answer (unseen11 wrongA, M5): refuses unknown names but types dry_run as a plain bool, so "yes", 1
and 0 are accepted (0 cancels ORD-1045). Its message listed ORD-1043, which was as expected, in a part that was
not a sentence ("found ORD-1043 it ran: ..."), under a rule the refused calls kept; the rule it breaks is the
strict dry_run."""

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError

from course_lib import wire
from course_lib.servers import failures, orders

EXPECT = 'dry_run="yes" must be refused'
NOT_SAID = ("ORD-1043 it ran", "change nothing when a call is refused")


def answer():
    store = orders.OrderStore()
    server = MCPServer("cancel", log_level="WARNING")

    @server.tool()
    def cancel_order(order_number: str, ctx: Context, dry_run: bool = False) -> failures.CancelResult:
        """Cancel one unshipped order. Pass dry_run=true to only check."""
        extra = set(wire.raw_arguments(ctx)) - {"order_number", "dry_run"}
        if extra:
            raise ToolError(f"Unknown argument(s): {', '.join(sorted(extra))}.")
        return failures.cancel(store, order_number, dry_run)

    return server
