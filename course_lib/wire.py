"""The one place that touches the moving parts of the MCP SDK.

Connect to a server in process in either protocol era, record the exact JSON-RPC frames,
dump any SDK object in its wire form, and register tools with stable descriptions.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, contextmanager
from typing import Any, Literal, TypeVar

MODERN = "2026-07-28"
"""The stateless protocol era: no handshake, every request carries its envelope."""
HANDSHAKE = "2025-11-25"
"""The last handshake-era version: `initialize` first, then requests on a session."""
Era = Literal["2026-07-28", "2025-11-25"]
ERAS: tuple[Era, ...] = (MODERN, HANDSHAKE)

T = TypeVar("T")


def new_server(name: str, **kwargs: Any):
    """A fresh `MCPServer` that keeps the kernel's log quiet (the SDK default is INFO)."""
    from mcp.server import MCPServer

    kwargs.setdefault("log_level", "WARNING")
    return MCPServer(name, **kwargs)


def tool(server, **kwargs: Any) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Like `@server.tool()`, but the description is the docstring run through `inspect.cleandoc`.

    Python 3.11 and 3.12 keep a docstring's indentation and 3.13 strips it, so the raw
    docstring makes the wire description differ between versions; this makes it identical.
    """

    def register(fn: Callable[..., T]) -> Callable[..., T]:
        kwargs.setdefault("description", inspect.cleandoc(fn.__doc__ or ""))
        server.add_tool(fn, **kwargs)
        return fn

    return register


@contextmanager
def sdk_warnings() -> Iterator[list[str]]:
    """Collect the SDK's log messages (WARNING and above) instead of printing them.

    The SDK only *logs* some problems, such as a tool name the spec forbids or a duplicate
    name; this makes those messages a value a lesson can show and a test can assert on.
    """
    import logging

    messages: list[str] = []

    class _Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            messages.append(record.getMessage())

    logger, handler = logging.getLogger("mcp"), _Keep(logging.WARNING)
    saved = logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        yield messages
    finally:
        logger.removeHandler(handler)
        logger.propagate = saved


def docstring_as_written(fn: Callable[..., Any]) -> str:
    """A function's docstring exactly as typed in its source, indentation included.

    This is what `fn.__doc__` holds on Python 3.11 and 3.12 (3.13 dedents it when compiling),
    recovered from the source so that it is the same on every Python version.
    """
    import ast

    source = inspect.getsource(fn)
    if source[:1].isspace():  # a nested def: parse it inside a block so its indentation is kept
        source = "if True:\n" + source
        node = ast.parse(source).body[0].body[0]
    else:
        node = ast.parse(source).body[0]
    return ast.get_docstring(node, clean=False) or ""


def dedent_like_python313(docstring: str) -> str:
    """A docstring as CPython 3.13+ compiles it: tabs expanded, the first line's leading spaces and the
    common indentation of the other lines removed, everything else (blank lines, final newline) kept.

    Unlike `inspect.cleandoc`, this keeps leading and trailing blank lines, so a closing `\"\"\"` on its
    own line leaves a trailing newline.
    """
    lines = docstring.expandtabs().split("\n")
    rest = lines[1:]
    margin = min((len(line) - len(line.lstrip(" ")) for line in rest if line.strip(" ")), default=0)
    return "\n".join([lines[0].lstrip(" ")] + [line[min(margin, len(line) - len(line.lstrip(" "))):] for line in rest])


def docstring_as_python313(fn: Callable[..., Any]) -> str:
    """`fn.__doc__` as Python 3.13+ holds it (and `@server.tool()` sends it), on every Python version."""
    return dedent_like_python313(docstring_as_written(fn))


def dump(obj: Any) -> Any:
    """Wire form (camelCase keys, no nulls, JSON types) of an SDK object, list or dict of them."""
    if hasattr(obj, "model_dump"):
        return obj.model_dump(by_alias=True, exclude_none=True, mode="json")
    if isinstance(obj, (list, tuple)):
        return [dump(item) for item in obj]
    if isinstance(obj, dict):
        return {key: dump(value) for key, value in obj.items()}
    return obj


def to_json(obj: Any, indent: int | None = None) -> str:
    """`dump` serialized as JSON; compact (no spaces) when `indent` is None."""
    separators = (",", ":") if indent is None else (",", ": ")
    return json.dumps(dump(obj), indent=indent, separators=separators, ensure_ascii=False)


class _TappedStream:
    """One direction of an in-memory stream that logs every JSON-RPC message it carries."""

    def __init__(self, inner, frames: list[tuple[str, dict]], direction: str):
        self._inner, self._frames, self._direction = inner, frames, direction

    def _record(self, item):
        message = getattr(item, "message", None)
        if message is not None:
            self._frames.append((self._direction, dump(message)))
        return item

    async def receive(self):
        return self._record(await self._inner.receive())

    async def send(self, item) -> None:
        await self._inner.send(self._record(item))

    def __aiter__(self):
        return self

    async def __anext__(self):
        return self._record(await self._inner.__anext__())

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc) -> None:
        await self.aclose()


class Tap:
    """An in-process transport that records every JSON-RPC frame in `frames`.

    `frames` holds `(direction, message)` pairs; direction is "C->S" or "S->C".
    """

    def __init__(self, server):
        from mcp.client._memory import InMemoryTransport  # private in SDK 2.3: kept here only

        self.server = server
        self.frames: list[tuple[str, dict]] = []
        self._inner = InMemoryTransport(server)

    async def __aenter__(self):
        read, write = await self._inner.__aenter__()
        return _TappedStream(read, self.frames, "S->C"), _TappedStream(write, self.frames, "C->S")

    async def __aexit__(self, *exc):
        return await self._inner.__aexit__(*exc)


@asynccontextmanager
async def connect(server, era: Era = MODERN, **client_kwargs: Any) -> AsyncIterator[Any]:
    """An SDK `Client` connected in process to `server` (an `MCPServer` or a `Tap`) in `era`.

    2026-07-28 is the modern era (`server/discover`, no handshake); 2025-11-25 is what a
    classic host speaks (`initialize`, then requests on a session).
    """
    from mcp import Client

    if era not in ERAS:
        raise ValueError(f"unknown protocol era {era!r}; use one of {', '.join(ERAS)}")
    mode = "legacy" if era == HANDSHAKE else "auto"
    async with Client(server, mode=mode, **client_kwargs) as client:
        if client.protocol_version != era:  # "auto" may fall back to the handshake silently
            raise RuntimeError(f"asked for protocol {era}, the server negotiated {client.protocol_version}")
        yield client


async def list_tools(server, era: Era = MODERN) -> list:
    """The tools a client sees from `tools/list` (SDK `Tool` objects)."""
    async with connect(server, era) as client:
        return list((await client.list_tools()).tools)


async def call_tool(server, name: str, arguments: dict | None = None, era: Era = MODERN):
    """One `tools/call` through a fresh in-process client; returns the SDK `CallToolResult`."""
    async with connect(server, era) as client:
        return await client.call_tool(name, arguments or {})


def client_cache(store: Any = None, user: str = "", share_public: bool = False, target: str = "course"):
    """Client response-cache settings (SDK `CacheConfig`); pass as `connect(..., cache=...)`.

    With a `store` shared between clients, `user` keeps each user's "private" entries apart and
    `share_public=True` lets every user read entries the server marked "public". `target` names
    the server, which the SDK cannot derive for an in-process connection.
    """
    from mcp.client.caching import CacheConfig

    if store is None:
        return CacheConfig(share_public=share_public)
    return CacheConfig(store=store, partition=user or "default", share_public=share_public, target_id=target)


def shared_cache_store():
    """An empty in-memory response cache that several clients can share (SDK `InMemoryResponseCacheStore`)."""
    from mcp.client.caching import InMemoryResponseCacheStore

    return InMemoryResponseCacheStore()


def requests_sent(frames: list[tuple[str, dict]], method: str) -> int:
    """How many requests for `method` the client sent, in frames recorded by a `Tap`."""
    return sum(1 for direction, frame in frames if direction == "C->S" and frame.get("method") == method)


async def call_concurrently(server, calls: list[tuple[str, dict]], clients: int = 1, era: Era = MODERN) -> list[dict]:
    """Make every call at once over `clients` client sessions, all opened first; wire-form results in call order.

    Opening every session before the first call makes retries really arrive together, which is
    what a race in a server needs in order to show.
    """
    import anyio

    results: list[dict] = [{} for _ in calls]
    ready, go = [0], anyio.Event()

    async def session(offset: int) -> None:
        async with connect(server, era) as client:
            await client.list_tools()
            ready[0] += 1
            if ready[0] == clients:
                go.set()
            await go.wait()
            async with anyio.create_task_group() as group:
                for index in range(offset, len(calls), clients):
                    async def one(i: int = index) -> None:
                        results[i] = dump(await client.call_tool(*calls[i]))
                    group.start_soon(one)

    async with anyio.create_task_group() as group:
        for offset in range(clients):
            group.start_soon(session, offset)
    return results


def run_sync(fn: Callable[..., Awaitable[T]], *args: Any) -> T:
    """Run an async function to completion from plain code, even inside a running notebook loop.

    A notebook kernel already runs an event loop, so `anyio.run` cannot be called there;
    a worker thread gets its own loop.
    """
    import anyio

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(anyio.run, fn, *args).result()


# --- failures, raw requests and real transports (lesson 03) ----------------------------------------


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


def raw_arguments(ctx: Any) -> dict[str, Any]:
    """Inside a tool: the arguments exactly as the client sent them, before validation dropped extras.

    `ctx` is the tool's injected `Context`. The SDK ignores argument names it does not know; a tool
    that must be strict compares these names with the ones it takes.
    """
    params = ctx.request_context.params
    arguments = params.get("arguments") if isinstance(params, dict) else getattr(params, "arguments", None)
    return dict(arguments or {})


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


async def stdio_exchange(server_name: str, lines: list[str], timeout: float = 10.0) -> list[Any]:
    """Write raw `lines` to a lesson server run over stdio in a child process; return what came back.

    The child is `python -m course_lib.serving <server_name>`. The last line must be a valid request
    with an `id`: reading stops at its answer, so lines the server ignores cost no waiting. The child
    gets end-of-input, is stopped if it lingers, and never outlives the call.
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


@asynccontextmanager
async def serve_http(server) -> AsyncIterator[str]:
    """Serve `server` over streamable HTTP on 127.0.0.1 (a free port) while the block runs; yields its URL."""
    import anyio
    import uvicorn

    config = uvicorn.Config(server.streamable_http_app(), host="127.0.0.1", port=0, log_level="warning",
                            log_config=None, lifespan="on")
    userver = uvicorn.Server(config)
    async with anyio.create_task_group() as group:
        group.start_soon(userver.serve)
        with anyio.fail_after(10):
            while not userver.started:
                await anyio.sleep(0.01)
        port = userver.servers[0].sockets[0].getsockname()[1]
        try:
            yield f"http://127.0.0.1:{port}/mcp"
        finally:
            userver.should_exit = True


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
