"""JSON-RPC by hand (lesson 03): raw requests and frames, the two kinds of failure, malformed input over
real transports.

`wire` connects the way a normal client does; this module sends what a normal client never would
(unknown methods, hand-built frames, broken JSON over stdio and HTTP) and tells a protocol error
from a tool execution error in either form a server uses.
"""

from __future__ import annotations

import json
from typing import Any

from course_lib.wire import HANDSHAKE, MODERN, Era, dump


def raw_request(method: str, params: dict[str, Any] | None = None):
    """A JSON-RPC request model for any method and params, including ones a normal client never sends."""
    import mcp_types

    return mcp_types.Request[dict[str, Any] | None, str](method=method, params=params)


async def send_raw(client, method: str, params: dict[str, Any] | None = None) -> Any:
    """Send any request on a connected client; the result as wire data, or the `MCPError` it failed with.

    The error is returned, not raised, so that a lesson can show it next to a success.
    """
    import mcp_types
    from mcp import MCPError
    from pydantic import ConfigDict

    class AnyResult(mcp_types.Result):
        model_config = ConfigDict(extra="allow")

    try:
        return dump(await client.session.send_request(raw_request(method, params), AnyResult))
    except MCPError as error:
        return error


async def call_or_error(client, name: str, arguments: dict[str, Any] | None = None) -> Any:
    """`client.call_tool`, but a JSON-RPC error comes back as its `MCPError` instead of being raised."""
    from mcp import MCPError

    try:
        return await client.call_tool(name, arguments or {})
    except MCPError as error:
        return error


def failure_kind(outcome: Any) -> str | None:
    """"protocol" for a JSON-RPC error, "execution" for an isError result, None for a success."""
    from mcp import MCPError

    if isinstance(outcome, MCPError) or (isinstance(outcome, dict) and "error" in outcome):
        return "protocol"
    data = dump(outcome)
    return "execution" if isinstance(data, dict) and data.get("isError") else None


def is_unknown_tool(outcome: Any, name: str) -> bool:
    """Whether a `tools/call` outcome says that no tool is called `name`, in either form a server uses.

    The spec makes an unknown tool a JSON-RPC protocol error (-32602 "Unknown tool: <name>"); SDK 2.3's
    `MCPServer` answers with an `isError` result whose text is "Unknown tool: <name>". `outcome` is an
    `MCPError`, a `CallToolResult`, or the wire dict of either; the name may be quoted.
    """
    import re

    from mcp import MCPError

    wanted = re.compile(rf"unknown tool:?\s*['\"`]?{re.escape(name)}['\"`]?\.?", re.I)
    if isinstance(outcome, MCPError) or (isinstance(outcome, dict) and "error" in outcome):
        error = outcome.error if isinstance(outcome, MCPError) else outcome["error"]
        code = error.code if hasattr(error, "code") else error.get("code")
        message = error.message if hasattr(error, "message") else error.get("message", "")
        return code == -32602 and wanted.fullmatch(str(message).strip()) is not None
    data = dump(outcome)
    if not (isinstance(data, dict) and data.get("isError")):
        return False
    texts = [block.get("text", "") for block in data.get("content", []) if isinstance(block, dict)]
    return any(wanted.fullmatch(text.strip()) is not None for text in texts)


def _envelope(era: Era) -> dict[str, Any]:
    return {"_meta": {"io.modelcontextprotocol/protocolVersion": era,
                      "io.modelcontextprotocol/clientInfo": {"name": "course", "version": "0"},
                      "io.modelcontextprotocol/clientCapabilities": {}}}


def request_frame(method: str, params: dict[str, Any] | None = None, era: Era = MODERN,
                  request_id: int | str = 1) -> dict[str, Any]:
    """A JSON-RPC request as a client of `era` writes it (2026-07-28 adds the `_meta` envelope)."""
    params = dict(params or {})
    if era == MODERN:
        params.update(_envelope(era))
    frame: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params:
        frame["params"] = params
    return frame


def opening_request(era: Era, request_id: int | str = 1) -> dict[str, Any]:
    """The first request a client sends in `era`: `server/discover` (2026-07-28) or `initialize`."""
    if era == MODERN:
        return request_frame("server/discover", era=era, request_id=request_id)
    return request_frame("initialize", {"protocolVersion": era, "capabilities": {},
                                        "clientInfo": {"name": "course", "version": "0"}}, era, request_id)


def opening_frames(era: Era, request_id: int | str = 1) -> list[dict[str, Any]]:
    """Every frame that opens a connection in `era`: the opening request, plus `initialized` for 2025-11-25."""
    frames = [opening_request(era, request_id)]
    if era == HANDSHAKE:
        frames.append({"jsonrpc": "2.0", "method": "notifications/initialized"})
    return frames


STDIO_SAFETY_TIMEOUT = 600.0
"""Seconds after which `stdio_exchange` gives up: only a guard against a hung child. The exchange waits for
events (the answer to the last line, end of output, the child's exit), never for a time, so a slow machine
(a child's start-up took over 10 s under load) makes it slower, not wrong."""


async def stdio_exchange(server_name: str, lines: list[str], timeout: float = STDIO_SAFETY_TIMEOUT) -> list[Any]:
    """Write raw `lines` to a lesson server run over stdio in a child process; return what came back.

    The child is `python -m course_lib.serving <server_name>`. The last line must be a valid request
    with an `id`: reading stops at its answer, so lines the server ignores cost no waiting; a child that
    exits first ends the output, which raises rather than waits. The child gets end-of-input, is stopped if
    it lingers past `timeout`, and never outlives the call.
    """
    import subprocess

    import anyio
    from anyio.streams.buffered import BufferedByteReceiveStream

    last_id = json.loads(lines[-1])["id"]
    from course_lib import serving

    process = await anyio.open_process(serving.command(server_name), stderr=subprocess.DEVNULL)
    replies: list[Any] = []
    try:
        for line in lines:
            await process.stdin.send((line + "\n").encode())
        reader = BufferedByteReceiveStream(process.stdout)
        with anyio.fail_after(timeout):
            while True:
                raw = (await reader.receive_until(b"\n", 1 << 20)).decode()
                reply = json.loads(raw) if raw.strip().startswith("{") else raw
                replies.append(reply)
                if isinstance(reply, dict) and reply.get("id") == last_id:
                    break
        await process.stdin.aclose()
        with anyio.move_on_after(timeout):
            await process.wait()
    finally:
        if process.returncode is None:
            process.kill()
            with anyio.CancelScope(shield=True):
                await process.wait()
        await process.aclose()
    return replies


async def post_raw(url: str, body: str, era: Era = MODERN, timeout: float = 10.0) -> tuple[int, Any]:
    """POST a raw body (valid JSON or not) to a streamable HTTP endpoint; returns (status, parsed reply)."""
    import httpx2

    headers = {"content-type": "application/json", "accept": "application/json, text/event-stream",
               "mcp-protocol-version": era}
    async with httpx2.AsyncClient(timeout=timeout) as http:
        response = await http.post(url, content=body.encode(), headers=headers)
    try:
        return response.status_code, response.json()
    except ValueError:
        return response.status_code, response.text
