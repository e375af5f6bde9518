"""The wire and show helpers lessons 02-03 added: raw requests, failure kinds, real transports, host tables."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import mcp_types
import pytest
from mcp import MCPError
from mcp.server.mcpserver import Context
from pydantic import BaseModel, ConfigDict

from course_lib import protocol, serving, show, wire
from course_lib.servers import base, failures, orders


def children() -> set[int]:
    """Process ids whose parent is this process (Linux /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == os.getpid():
            found.add(int(stat.parent.name))
    return found


# --- is_unknown_tool: both branches ---------------------------------------------------------------


def test_is_unknown_tool_recognises_the_protocol_error_form():
    error = MCPError(-32602, "Unknown tool: get_ordr")
    assert protocol.is_unknown_tool(error, "get_ordr")
    assert protocol.is_unknown_tool({"jsonrpc": "2.0", "id": 3, "error": {"code": -32602, "message": "Unknown tool: get_ordr"}}, "get_ordr")
    assert not protocol.is_unknown_tool(error, "other")
    assert not protocol.is_unknown_tool(MCPError(-32601, "Unknown tool: get_ordr"), "get_ordr")
    assert not protocol.is_unknown_tool(MCPError(-32602, "Invalid request parameters"), "get_ordr")
    assert protocol.is_unknown_tool(MCPError(-32602, "Unknown tool 'get_ordr'."), "get_ordr")
    assert not protocol.is_unknown_tool(MCPError(-32602, "Unknown tool: get_ordr_v2"), "get_ordr")


def test_is_unknown_tool_recognises_the_is_error_form():
    sdk = mcp_types.CallToolResult(content=[mcp_types.TextContent(type="text", text="Unknown tool: get_ordr")], is_error=True)
    assert protocol.is_unknown_tool(sdk, "get_ordr") and protocol.is_unknown_tool(wire.dump(sdk), "get_ordr")
    ok = mcp_types.CallToolResult(content=[mcp_types.TextContent(type="text", text="Unknown tool: get_ordr")])
    assert not protocol.is_unknown_tool(ok, "get_ordr"), "only an isError result counts"
    other = mcp_types.CallToolResult(content=[mcp_types.TextContent(type="text", text="Order not found")], is_error=True)
    assert not protocol.is_unknown_tool(other, "get_ordr")


@pytest.mark.parametrize("era", wire.ERAS)
def test_is_unknown_tool_on_live_servers_of_both_kinds(era):
    async def go(server):
        async with wire.connect(server, era) as client:
            return (await protocol.call_or_error(client, "get_ordr", {}),
                    await protocol.call_or_error(client, "get_order", {"order_number": "ORD-9999"}))

    sdk_unknown, sdk_missing = wire.run_sync(go, failures.build_server())
    spec_unknown, spec_missing = wire.run_sync(go, failures.build_spec_server())
    assert protocol.failure_kind(sdk_unknown) == "execution" and protocol.failure_kind(spec_unknown) == "protocol"
    assert protocol.is_unknown_tool(sdk_unknown, "get_ordr") and protocol.is_unknown_tool(spec_unknown, "get_ordr")
    assert not protocol.is_unknown_tool(sdk_missing, "get_order") and not protocol.is_unknown_tool(spec_missing, "get_order")
    assert protocol.failure_kind(sdk_missing) == protocol.failure_kind(spec_missing) == "execution"


def test_failure_kind_of_a_success_is_none():
    ok = wire.run_sync(wire.call_tool, orders.build_server(), "list_orders", {})
    assert protocol.failure_kind(ok) is None and protocol.failure_kind(wire.dump(ok)) is None


# --- raw requests --------------------------------------------------------------------------------


@pytest.mark.parametrize("era", wire.ERAS)
def test_send_raw_returns_protocol_errors_and_results(era):
    async def go():
        async with wire.connect(failures.build_server(), era) as client:
            return (await protocol.send_raw(client, "orders/frobnicate", {}),
                    await protocol.send_raw(client, "tools/call", {"arguments": {}}),
                    await protocol.send_raw(client, "tools/call", {"name": "get_order", "arguments": {"order_number": "ORD-1042"}}))

    unknown, no_name, ok = wire.run_sync(go)
    assert (unknown.code, unknown.message, unknown.data) == (-32601, "Method not found", "orders/frobnicate")
    assert no_name.code == -32602
    assert ok["structuredContent"]["order_number"] == "ORD-1042" and ok["isError"] is False


def test_raw_arguments_sees_names_the_sdk_drops():
    server = base.new_server("peek")

    @base.tool(server)
    def peek(ctx: Context, a: int = 0) -> list[str]:
        """The argument names as sent."""
        return sorted(wire.raw_arguments(ctx))

    for era in wire.ERAS:
        result = wire.run_sync(wire.call_tool, server, "peek", {"a": 1, "b": 2, "A": 3}, era)
        assert result.structured_content == {"result": ["A", "a", "b"]}


def test_opening_requests_match_each_era():
    assert protocol.opening_request(wire.MODERN)["method"] == "server/discover"
    assert protocol.opening_request(wire.MODERN)["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] == wire.MODERN
    legacy = protocol.opening_request(wire.HANDSHAKE, request_id=7)
    assert (legacy["id"], legacy["method"], legacy["params"]["protocolVersion"]) == (7, "initialize", wire.HANDSHAKE)


# --- real transports ---------------------------------------------------------------------------


def test_stdio_drops_malformed_lines_and_answers_the_next_request_and_leaves_no_process():
    before = children()
    lines = ['{"jsonrpc": "2.0", "id": 1, "method": "tools/list"', '{"jsonrpc": "2.0", "id": 2}', "not json",
             json.dumps(protocol.opening_request(wire.HANDSHAKE, request_id="last"))]
    replies = wire.run_sync(protocol.stdio_exchange, "order-desk", lines)
    assert [reply["id"] for reply in replies] == ["last"]
    assert replies[0]["result"]["protocolVersion"] == wire.HANDSHAKE
    assert children() <= before


def test_stdio_exchange_times_out_and_still_stops_the_child():
    before = children()

    async def go():
        return await protocol.stdio_exchange("order-desk", ['{"jsonrpc": "2.0", "id": 9}'], timeout=2)

    with pytest.raises(TimeoutError):
        wire.run_sync(go)
    assert children() <= before


def test_http_answers_malformed_bodies_with_400_and_json_rpc_errors():
    async def go():
        out = []
        async with serving.serve_http(failures.build_server()) as url:
            assert re.fullmatch(r"http://127\.0\.0\.1:\d+/mcp", url)
            for era in wire.ERAS:
                out.append(await protocol.post_raw(url, '{"jsonrpc": "2.0", "id": 1', era))
                out.append(await protocol.post_raw(url, '{"jsonrpc": "2.0", "id": 2}', era))
        return out

    (s1, parse), (s2, invalid), (s3, parse_legacy), (s4, invalid_legacy) = wire.run_sync(go)
    assert s1 == s2 == s3 == s4 == 400
    assert parse == {"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": None}
    assert invalid["error"]["code"] == -32600 and invalid["id"] is None
    assert parse_legacy["error"]["code"] == -32700 and parse_legacy["error"]["message"].startswith("Parse error: ")
    assert invalid_legacy["error"]["code"] == -32602


def test_serve_http_works_with_a_real_client_and_stops():
    async def go():
        async with serving.serve_http(orders.build_server()) as url:
            async with wire.connect(url) as client:
                result = await client.call_tool("get_order", {"order_number": "ORD-1042"})
        return url, result

    url, result = wire.run_sync(go)
    assert result.structured_content["order_number"] == "ORD-1042"

    async def after():
        return await protocol.post_raw(url, "{}", timeout=2)

    with pytest.raises(Exception):
        wire.run_sync(after)


# --- show ----------------------------------------------------------------------------------------


def test_result_parts_puts_content_and_structured_content_side_by_side():
    result = wire.run_sync(wire.call_tool, orders.build_server(), "get_order", {"order_number": "ORD-1042"})
    rendered = show.result_parts(result)
    text = repr(rendered)
    assert text.startswith("isError: false\n--- content: what the model reads ---\n[0] text: {")
    assert "--- structuredContent: what programs get ---" in text
    assert 'class="course-side"' in rendered._repr_html_()
    error = wire.run_sync(wire.call_tool, orders.build_server(), "get_order", {"order_number": "ORD-9999"})
    assert repr(show.result_parts(error)).endswith("(none)")


def test_host_table_reads_structured_content_and_schema_titles_only():
    server = orders.build_server()
    (get_order, list_orders) = wire.run_sync(wire.list_tools, server)
    listing = wire.dump(wire.run_sync(wire.call_tool, server, "list_orders", {}))
    listing["content"] = [{"type": "text", "text": "not the data"}]
    lines = repr(show.host_table(listing, list_orders)).splitlines()
    assert lines[0].split() == ["Order", "Status", "Expected", "Items"]
    assert lines[1].split() == ["ORD-1045", "received", "2026-10-09", "3"]
    assert repr(show.host_table(listing)).splitlines()[0].split()[0] == "order_number"
    one = wire.run_sync(wire.call_tool, server, "get_order", {"order_number": "ORD-1042"})
    assert repr(show.host_table(one, get_order, rows="lines")).splitlines()[0].split() == ["Sku", "Name", "Quantity"]
    failed = wire.run_sync(wire.call_tool, server, "get_order", {"order_number": "ORD-9999"})
    assert "no table: isError: true" in repr(show.host_table(failed, get_order))


def test_exchange_hides_the_opening_and_the_envelope():
    for era in wire.ERAS:
        tap = wire.Tap(orders.build_server())

        async def go():
            async with wire.connect(tap, era) as client:
                await client.call_tool("get_order", {"order_number": "ORD-9999"})

        wire.run_sync(go)
        text = repr(show.exchange(tap.frames))
        assert "server/discover" not in text and "initialize" not in text
        assert "io.modelcontextprotocol" not in text
        assert text.count("\n") == 1 and '"isError": true' in text
        assert "io.modelcontextprotocol" in repr(show.exchange(tap.frames, envelope=True)) or era == wire.HANDSHAKE


# --- lesson notebooks ----------------------------------------------------------------------------


class Plan(BaseModel):
    """A nested argument object that forbids unknown keys."""

    model_config = ConfigDict(extra="forbid")
    nodes: int


def test_top_level_extras_are_dropped_but_a_nested_forbid_model_is_honoured():
    server = base.new_server("extras")

    @base.tool(server)
    def flat(nodes: int) -> str:
        """Flat arguments."""
        return f"nodes={nodes}"

    @base.tool(server)
    def nested(plan: Plan) -> str:
        """One nested object."""
        return f"nodes={plan.nodes}"

    flat_result = wire.run_sync(wire.call_tool, server, "flat", {"nodes": 3, "dryRun": True})
    assert not flat_result.is_error and flat_result.content[0].text == "nodes=3"
    nested_result = wire.run_sync(wire.call_tool, server, "nested", {"plan": {"nodes": 3, "dryRun": True}})
    assert nested_result.is_error and "Extra inputs are not permitted" in nested_result.content[0].text
    nested_tool = wire.dump(wire.run_sync(wire.list_tools, server))[1]
    assert nested_tool["inputSchema"]["$defs"]["Plan"]["additionalProperties"] is False
    assert "additionalProperties" not in nested_tool["inputSchema"]
