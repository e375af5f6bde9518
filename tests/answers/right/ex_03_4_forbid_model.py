"""Validates the raw arguments with a pydantic model that forbids extras and is strict."""

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel, ConfigDict, ValidationError

from course_lib import wire
from course_lib.servers import failures, orders


class CancelArgs(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    order_number: str
    dry_run: bool = False


def answer():
    store = orders.OrderStore()
    server = MCPServer("cancel", log_level="WARNING")

    @server.tool()
    def cancel_order(ctx: Context, order_number: str, dry_run: bool = False) -> failures.CancelResult:
        """Cancel one unshipped order. Pass dry_run=true to only check."""
        try:
            args = CancelArgs.model_validate(wire.raw_arguments(ctx))
        except ValidationError as error:
            problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in error.errors())
            raise ToolError(f"Invalid arguments ({problems}). Nothing was changed.") from None
        return failures.cancel(store, args.order_number, args.dry_run)

    return server
