"""Lesson 09's claims about SDK 2.3: list-changed delivery per era, sealed request state, elicitation, HTTP headers,
and what a stdio server does with a stray print()."""

from __future__ import annotations

import re
from typing import Annotated

import anyio
import pytest
from mcp import Client
from mcp.client.subscriptions import ListenNotSupportedError
from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.shared.subscriptions import ToolsListChanged
from pydantic import Field

from course_lib import serving, wire
from claims_ledger import SPEC, cited_paragraphs, claim


def growing(notify: bool, send: bool) -> MCPServer:
    """A server whose one tool adds a tool, then announces it the chosen ways."""
    server = MCPServer("growing", log_level="WARNING")

    @server.tool(description="Add a tool.")
    async def grow(ctx: Context) -> str:
        server.add_tool(lambda x: x, name="added", description="Added.")
        if notify:
            await ctx.notify_tools_changed()
        if send:
            await ctx.session.send_tool_list_changed()
        return "grown"

    return server


async def hear(server: MCPServer, era: str, listen: bool) -> tuple[list[str], list[object]]:
    """(notification methods the message handler saw, events the listen stream yielded)."""
    heard: list[str] = []
    events: list[object] = []

    async def note(message) -> None:
        heard.append(getattr(message, "method", type(message).__name__))

    async with wire.connect(server, era, message_handler=note) as client:
        if listen:
            async with client.listen(tools_list_changed=True) as stream:
                await client.call_tool("grow", {})
                with anyio.move_on_after(10):  # a missing event is the failure, not a hang (generous: a loaded CI)
                    async for event in stream:
                        events.append(event)
                        break
        else:
            await client.call_tool("grow", {})
            await anyio.sleep(0.1)
    return heard, events


def run(server, era, listen):
    return anyio.run(hear, server, era, listen)


@claim("sdk-notify-tools-changed-reaches-listen-streams")
def test_notify_tools_changed_reaches_a_2026_client_only_on_a_listen_stream():
    assert run(growing(notify=True, send=False), "2026-07-28", True) == (
        ["notifications/tools/list_changed"], [ToolsListChanged()])
    assert run(growing(notify=True, send=False), "2026-07-28", False) == ([], [])
    assert run(growing(notify=True, send=False), "2025-11-25", False) == ([], [])


@claim("sdk-send-tool-list-changed-reaches-handshake-sessions")
def test_send_tool_list_changed_reaches_a_2025_session_and_no_2026_listen_stream():
    assert run(growing(notify=False, send=True), "2025-11-25", False) == (["notifications/tools/list_changed"], [])
    assert run(growing(notify=False, send=True), "2026-07-28", True) == ([], [])


@claim("sdk-tools-list-changed-declared-per-era")
def test_tools_list_changed_is_declared_in_2026_and_not_in_the_2025_handshake():
    async def declared(era):
        async with wire.connect(growing(True, True), era) as client:
            return client.server_capabilities.tools.list_changed

    assert anyio.run(declared, "2026-07-28") is True
    assert anyio.run(declared, "2025-11-25") is False


@claim("sdk-listen-refused-before-2026")
def test_listen_is_refused_on_a_2025_session():
    async def listen_on_2025() -> str:
        async with wire.connect(growing(True, True), "2025-11-25") as client:
            with pytest.raises(ListenNotSupportedError) as refused:
                async with client.listen(tools_list_changed=True):
                    pass
            return str(refused.value)

    assert "requires 2026-07-28" in anyio.run(listen_on_2025)


@claim("sdk-request-state-sealed-aes-gcm")
def test_request_state_is_sealed_with_aes_256_gcm_for_600_seconds_by_default():
    from mcp.server.request_state import AESGCMRequestStateCodec, RequestStateSecurity

    from unittest import mock

    from mcp.server import request_state

    (paragraph,) = cited_paragraphs("sdk-request-state-sealed-aes-gcm")
    stated = re.search(r"SDK 2\.3 \*seals\* it with AES-(\d+)-GCM .* for (\d+) seconds;", paragraph)
    assert stated, paragraph
    bits, seconds = int(stated[1]), float(stated[2])
    aes_keys: list[int] = []
    real_aesgcm = request_state.AESGCM
    with mock.patch.object(request_state, "AESGCM", side_effect=lambda key: aes_keys.append(len(key))
                           or real_aesgcm(key)):
        default = RequestStateSecurity.ephemeral()
        servers = [MCPServer("x", log_level="WARNING") for _ in range(2)]
    assert isinstance(default.codec, AESGCMRequestStateCodec) and default.ttl == seconds
    assert aes_keys == [bits // 8] * 3  # one key of the stated size for ephemeral() and for each server built
    policies = []
    for server in servers:
        boundaries = [m for m in server._lowlevel_server.middleware if type(m).__name__ == "RequestStateBoundary"]
        assert len(boundaries) == 1
        policies.append(boundaries[0]._security)
    assert all(isinstance(p.codec, AESGCMRequestStateCodec) and p.ttl == seconds for p in policies)
    assert policies[0].codec._mint_kid != policies[1].codec._mint_kid  # each MCPServer makes its own key


@claim("sdk-ctx-elicit-handshake-era-only")
def test_ctx_elicit_works_on_a_2025_session_and_not_on_a_2026_client():
    from mcp_types import ElicitResult
    from pydantic import BaseModel

    class Confirm(BaseModel):
        confirm: bool

    server = MCPServer("asker", log_level="WARNING")

    @server.tool(description="Ask first.")
    async def ask(ctx: Context) -> str:
        answer = await ctx.elicit("Go?", Confirm)
        return answer.action

    async def yes(ctx, params):
        return ElicitResult(action="accept", content={"confirm": True})

    async def outcome(era):
        async with wire.connect(server, era, elicitation_callback=yes) as client:
            result = await client.call_tool("ask", {})
            return result.is_error, result.content[0].text

    from mcp.shared.exceptions import NoBackChannelError

    assert anyio.run(outcome, "2025-11-25") == (False, "accept")
    with pytest.raises(BaseExceptionGroup) as raised:
        anyio.run(outcome, "2026-07-28")
    assert raised.group_contains(NoBackChannelError, depth=None)


SMALL = {"one": 1, "two": 2, "three": 3}


@claim("sdk-http-request-headers-per-era")
def test_a_2026_client_sends_method_name_and_mirrored_params_and_a_2025_client_version_and_session():
    seen: list[list[str]] = []
    router = MCPServer("router", log_level="WARNING")

    @router.tool(description="Find an order.")
    def find_order(region: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Region"})],
                   ctx: Context) -> str:
        seen.append(None if ctx.headers is None else sorted(name for name in ctx.headers if name.startswith("mcp-")))
        return "found"

    async def headers(mode: str) -> list[str]:
        async with serving.serve_http(router) as url:
            async with Client(url, mode=mode) as client:
                await client.call_tool("find_order", {"region": "eu-west"})
        return seen[-1]

    (paragraph,) = cited_paragraphs("sdk-http-request-headers-per-era")
    flat = " ".join(paragraph.split())
    said = re.search(r"The other three are (\d{4}-\d{2}-\d{2})'s required standard headers \(§Server Validation\): the "
                     r"protocol version and its (\w+) Standard Request Headers, method and, for a call, the tool's name\. "
                     r"Stdio and in-process calls carry none; of the `Mcp-…` headers a 2025-11-25 client sends only "
                     r"`([\w-]+)` and `([\w-]+)`\.", flat)
    assert said and said[1] == "2026-07-28", paragraph
    spec = (SPEC / "2026-07-28/docs/specification/2026-07-28/basic/transports/streamable-http.mdx").read_text()
    # "required standard headers (§Server Validation)": the list in that section of the vendored file
    validation = " ".join(spec.split("### Server Validation", 1)[1].split("\n## ", 1)[0].split())
    required = re.findall(r"`([\w-]+)`", re.search(r"A required standard header \(([^)]*)\) is missing", validation)[1])
    # "the protocol version and its two Standard Request Headers": that section's own header, then the table
    table = spec.split("### Standard Request Headers", 1)[1].split("\n#", 1)[0]
    assert "### Protocol Version Header" in spec and required == ["MCP-Protocol-Version"] + re.findall(
        r"^\| `(Mcp-[\w-]+)`", table, re.M) == ["MCP-Protocol-Version", "Mcp-Method", "Mcp-Name"]
    assert SMALL[said[2]] == len(required) - 1
    assert anyio.run(headers, "auto") == sorted([h.lower() for h in required] + ["mcp-param-region"])
    assert anyio.run(headers, "legacy") == sorted([said[3].lower(), said[4].lower()])  # of the mcp-* headers
    for era in wire.ERAS:  # "in process there are no headers at all"
        wire.run_sync(wire.call_tool, router, "find_order", {"region": "eu-west"}, era)
        assert seen[-1] is None, (era, seen[-1])


@claim("sdk-http-checks-host-and-origin")
def test_the_http_transport_refuses_a_foreign_origin_and_host():
    import httpx

    server = MCPServer("checked", log_level="WARNING")
    body = {"jsonrpc": "2.0", "id": 1, "method": "server/discover",
            "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                                 "io.modelcontextprotocol/clientCapabilities": {}}}}
    headers = {"Accept": "application/json, text/event-stream", "Mcp-Protocol-Version": "2026-07-28",
               "Mcp-Method": "server/discover"}

    async def statuses() -> list[int]:
        async with serving.serve_http(server) as url:
            async with httpx.AsyncClient() as http:
                return [(await http.post(url, json=body, headers={**headers, **extra})).status_code
                        for extra in ({}, {"Origin": "http://evil.example"}, {"Host": "evil.example"})]

    (paragraph,) = cited_paragraphs("sdk-http-checks-host-and-origin")
    stated = re.search(r"a foreign `Origin` gets (\d{3}), a foreign `Host` (\d{3})", paragraph)
    assert stated, paragraph
    assert anyio.run(statuses) == [200, int(stated[1]), int(stated[2])]


PRINTER = """import sys
from mcp.server import MCPServer

print("flushed before the server starts", flush=True)
server = MCPServer("printer", log_level="WARNING")


@server.tool(description="Print a line on stdout, then answer.")
def chatty() -> str:
    print("a stray print in a tool", flush=True)
    return "answered"


server.run("stdio")
"""


@claim("sdk-stdio-server-diverts-stray-prints")
def test_a_print_in_a_stdio_tool_goes_to_stderr_and_the_stream_survives(tmp_path):
    import sys
    import tempfile

    from mcp import StdioServerParameters, stdio_client

    script = tmp_path / "printer.py"
    script.write_text(PRINTER, encoding="utf-8")

    async def run() -> tuple[list[str], str]:
        params = StdioServerParameters(command=sys.executable, args=[str(script)])
        with tempfile.TemporaryFile("w+") as log:
            async with Client(stdio_client(params, errlog=log)) as client:
                answers = [(await client.call_tool("chatty", {})).content[0].text for _ in range(2)]
            log.seek(0)
            return answers, log.read()

    answers, stderr = anyio.run(run)
    assert answers == ["answered", "answered"]  # the stream was not corrupted
    assert stderr.count("a stray print in a tool") == 2  # fd 1 pointed at stderr while serving
    assert "flushed before the server starts" not in stderr  # that one went to the real stdout
