"""Lesson 03's order desk: failures a model can recover from, a strict mutation, and what they replace.

`build_server` is the good desk: every failure is a tool execution error with a message that says what
failed and the safe next step, and `cancel_order` refuses argument names and types it does not expect.
`build_fragile_server` shows the usual mistakes one at a time; `build_spec_server` is a low-level server
that reports an unknown tool the way the spec says (a JSON-RPC error), unlike SDK 2.3's `MCPServer`.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from pydantic import BaseModel, Field

from course_lib import wire
from course_lib.servers.base import new_server, tool
from course_lib.servers import orders
from course_lib.servers.orders import OrderNumber, OrderStore, Status

FragileStyle = Literal["json-error", "plain-exception", "raw-message"]
FRAGILE_STYLES: tuple[FragileStyle, ...] = ("json-error", "plain-exception", "raw-message")
DryRun = Annotated[bool, Field(strict=True, description="true: only check that the order can be cancelled; "
                                                        "nothing changes.")]


class CancelResult(BaseModel):
    """What `cancel_order` did."""

    order_number: str
    dry_run: bool
    status: Status = Field(description="The order's status after this call")


def require_known_arguments(ctx: Context, tool: str, allowed: tuple[str, ...]) -> None:
    """`ToolError` naming any argument the client sent that `tool` does not take (the SDK drops them)."""
    unknown = sorted(set(wire.raw_arguments(ctx)) - set(allowed))
    if unknown:
        names = ", ".join(repr(name[:40]) for name in unknown[:5])
        raise ToolError(f"Unknown argument(s) {names}. {tool} takes only: {', '.join(allowed)}. "
                        "Fix the names and call again; nothing was changed.")


def cancel(store: OrderStore, order_number: str, dry_run: bool) -> CancelResult:
    """Cancel an unshipped order of the signed-in customer (or only check, with `dry_run`)."""
    row = orders.customer_order(store, order_number, list_tool=None)
    if row.status in ("shipped", "delivered"):
        raise ToolError(f"{order_number} has already {row.status if row.status == 'shipped' else 'been delivered'}, "
                        "so it can no longer be cancelled. Nothing was changed. Tell the person they can "
                        "return it after delivery.")
    if row.status != "cancelled" and not dry_run:
        row = store.set_status(order_number, "cancelled")
    return CancelResult(order_number=order_number, dry_run=dry_run, status=row.status)


def build_server(store: OrderStore | None = None):
    """A fresh order desk whose failures are all recoverable tool errors, with a strict `cancel_order`."""
    store = store or OrderStore()
    server = new_server("order-desk")

    @tool(server, title="Get order", annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False))
    def get_order(order_number: OrderNumber) -> orders.OrderSummary:
        """Status, expected delivery date, carrier and items of one of the signed-in customer's orders.

        Use it when the person asks where an order is or what is in it.
        Do not use it to change or cancel an order.
        """
        return orders.summary(orders.customer_order(store, order_number, list_tool=None))

    @tool(server, title="Cancel order", annotations=ToolAnnotations(
        read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False))
    def cancel_order(ctx: Context, order_number: OrderNumber, dry_run: DryRun = False) -> CancelResult:
        """Cancel one of the signed-in customer's orders that has not shipped yet.

        Use it only when the person has asked to cancel that order; pass dry_run=true to check first.
        Do not use it for shipped or delivered orders: those can only be returned.
        """
        require_known_arguments(ctx, "cancel_order", ("order_number", "dry_run"))
        return cancel(store, order_number, dry_run)

    return server


def build_fragile_server(style: FragileStyle = "json-error", store: OrderStore | None = None):
    """The "before": `get_order` fails in `style`, and `cancel_order` is lax (unknown arguments are ignored).

    json-error: failure returned as a normal result holding `{"error": ...}` (isError false);
    plain-exception: the backend's exception escapes (the SDK hides its message);
    raw-message: the backend's message is passed on in a `ToolError` (internals leak).
    """
    if style not in FRAGILE_STYLES:
        raise ValueError(f"unknown style {style!r}; use one of {', '.join(FRAGILE_STYLES)}")
    store = store or OrderStore()
    server = new_server(f"order-desk-{style}")

    @tool(server)
    def get_order(order_number: str) -> str:
        """Get an order."""
        if style == "plain-exception":
            row = store.record(order_number)
            if row.customer_id != orders.SIGNED_IN:
                raise PermissionError(f"{order_number} belongs to {row.customer_email}")
            return orders.summary(row).model_dump_json()
        try:
            row = store.record(order_number)
        except (orders.OrderNotFound, orders.BackendUnavailable) as error:
            if style == "json-error":
                return json.dumps({"error": f"{type(error).__name__}: {error}"})
            raise ToolError(f"{type(error).__name__}: {error}") from None
        if row.customer_id != orders.SIGNED_IN:
            detail = f"{order_number} belongs to {row.customer_email}, not to the signed-in customer"
            if style == "json-error":
                return json.dumps({"error": detail})
            raise ToolError(detail)
        return orders.summary(row).model_dump_json()

    @tool(server)
    def cancel_order(order_number: str, dry_run: bool = False) -> CancelResult:
        """Cancel an order. Pass dry_run to only check."""
        return cancel(store, order_number, dry_run)

    return server


def build_spec_server(store: OrderStore | None = None):
    """A low-level server with one tool, `get_order`, that answers an unknown tool with JSON-RPC -32602."""
    import mcp_types
    from mcp import MCPError
    from mcp.server import Server

    store = store or OrderStore()
    tool = mcp_types.Tool(
        name="get_order", description="Status and items of one of the signed-in customer's orders.",
        input_schema={"type": "object", "properties": {"order_number": {"type": "string", "pattern": orders.ORDER_NUMBER}},
                      "required": ["order_number"]},
        output_schema=orders.OrderSummary.model_json_schema(),
    )

    def text_result(text: str, data: dict[str, Any] | None = None, error: bool = False):
        return mcp_types.CallToolResult(content=[mcp_types.TextContent(type="text", text=text)],
                                        structured_content=data, is_error=error)

    async def list_tools(ctx, params):
        return mcp_types.ListToolsResult(tools=[tool])

    async def call_tool(ctx, params):
        if params.name != tool.name:
            raise MCPError(-32602, f"Unknown tool: {params.name}")
        number = (params.arguments or {}).get("order_number")
        if not isinstance(number, str) or re.fullmatch(orders.ORDER_NUMBER, number) is None:
            return text_result("order_number is required: a string such as 'ORD-1042'.", error=True)
        try:
            data = orders.summary(orders.customer_order(store, number, list_tool=None)).model_dump(mode="json")
        except ToolError as error:
            return text_result(str(error), error=True)
        return text_result(json.dumps(data, indent=2), data)

    return Server("order-desk-spec", on_list_tools=list_tools, on_call_tool=call_tool)
