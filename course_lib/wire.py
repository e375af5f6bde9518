"""The SDK seam: the one place that touches the moving parts of the MCP SDK.

Connect to a server in process in either protocol era, record the exact JSON-RPC frames (`Tap`),
dump any SDK object in its wire form, run async code from plain code, and collect the SDK's log
lines. Private `mcp.*` modules are imported here and nowhere else (a test checks).
"""

from __future__ import annotations

import contextvars
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
        remote = getattr(server, "mcp_transport", None)  # a server across the grading boundary
        self._inner = remote() if remote is not None else InMemoryTransport(server)

    async def __aenter__(self):
        read, write = await self._inner.__aenter__()
        return _TappedStream(read, self.frames, "S->C"), _TappedStream(write, self.frames, "C->S")

    async def __aexit__(self, *exc):
        return await self._inner.__aexit__(*exc)


@asynccontextmanager
async def connect(server, era: Era = MODERN, **client_kwargs: Any) -> AsyncIterator[Any]:
    """An SDK `Client` connected in process to `server` (an `MCPServer` or a `Tap`) in `era`.

    2026-07-28 is the modern era (`server/discover`, no handshake); 2025-11-25 is what a
    classic host speaks (`initialize`, then requests on a session). A server across the grading
    boundary (it has `mcp_transport()`) is reached over that transport instead.
    """
    from mcp import Client

    from course_lib.lazy_imports import defer_iri_grammar

    defer_iri_grammar()  # the client imports jsonschema to validate results: 0.7 s saved per process
    if era not in ERAS:
        raise ValueError(f"unknown protocol era {era!r}; use one of {', '.join(ERAS)}")
    mode = "legacy" if era == HANDSHAKE else "auto"
    remote = getattr(server, "mcp_transport", None)
    async with Client(remote() if remote is not None else server, mode=mode, **client_kwargs) as client:
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


@asynccontextmanager
async def line_streams(stream: Any, max_line: int, on_broken: Callable[[str], None] | None = None,
                       meter: Callable[[bytes | None], str | None] | None = None):
    """The SDK's message streams over a byte stream, one JSON-RPC message per line (as stdio frames it).

    Yields `(read, write)` for whichever side runs here: a `Client` takes them as a transport, a server's
    `serve_streams` serves on them. A line over `max_line` bytes, a line that is not JSON-RPC, or the other
    side closing first ends the connection and is reported to `on_broken` (once, with a reason). `meter`, if
    given, sees each line before it is parsed (None for a line over `max_line`) and returns a reason to refuse
    it, which ends the connection the same way, or None.
    """
    import anyio
    import mcp_types
    from anyio.streams.buffered import BufferedByteReceiveStream
    from mcp.shared.memory import create_client_server_memory_streams
    from mcp.shared.message import SessionMessage

    finishing = [False]

    def broke(reason: str) -> None:
        if on_broken is not None and not finishing[0]:
            on_broken(reason)

    async with create_client_server_memory_streams() as (local, pumps):
        outgoing, incoming = pumps  # what the local side wrote; where its messages arrive

        async def send() -> None:
            try:
                async for item in outgoing:
                    if isinstance(item, SessionMessage):
                        text = item.message.model_dump_json(by_alias=True, exclude_unset=True)
                        await stream.send(text.encode() + b"\n")
            except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
                broke("the connection closed while sending")

        async def receive() -> None:
            buffered = BufferedByteReceiveStream(stream)
            try:
                while True:
                    line = await buffered.receive_until(b"\n", max_line)
                    refused = meter(line) if meter is not None else None
                    if refused:
                        broke(refused)
                        return
                    try:
                        message = mcp_types.jsonrpc_message_adapter.validate_json(line, by_name=False)
                    except ValueError:
                        broke("the other side sent a line that is not a JSON-RPC message")
                        return
                    await incoming.send(SessionMessage(message))
            except anyio.DelimiterNotFound:
                broke((meter(None) if meter is not None else None)
                      or f"the other side sent a message over {max_line:,} bytes")
            except (anyio.EndOfStream, anyio.IncompleteRead, anyio.ClosedResourceError, anyio.BrokenResourceError,
                    OSError):
                broke("the other side closed the connection")
            finally:
                await incoming.aclose()

        async with anyio.create_task_group() as group:
            group.start_soon(send)
            group.start_soon(receive)
            try:
                yield local
            finally:
                finishing[0] = True
                group.cancel_scope.cancel()
                with anyio.CancelScope(shield=True):
                    await stream.aclose()


async def serve_streams(server: Any, read: Any, write: Any) -> None:
    """Serve an `MCPServer` on one connection's message streams, in either protocol era (as over stdio)."""
    lowlevel = getattr(server, "_lowlevel_server", server)  # the SDK's own per-connection loop
    await lowlevel.run(read, write, lowlevel.create_initialization_options())


CARRIED: set[contextvars.ContextVar] = set()
"""Context variables `run_sync` carries into its worker thread (the check running, `checks.core`); nothing else of
the caller's context goes there (an event loop's own variables would stop the thread's loop from starting)."""


def run_sync(fn: Callable[..., Awaitable[T]], *args: Any) -> T:
    """Run an async function to completion from plain code, even inside a running notebook loop.

    A notebook kernel already runs an event loop, so `anyio.run` cannot be called there;
    a worker thread gets its own loop.
    """
    import anyio

    with ThreadPoolExecutor(max_workers=1) as pool:
        carried = [(var, value) for var, value in contextvars.copy_context().items() if var in CARRIED]

        def run() -> T:
            for var, value in carried:
                var.set(value)
            return anyio.run(fn, *args)

        return pool.submit(contextvars.Context().run, run).result()


def raw_arguments(ctx: Any) -> dict[str, Any]:
    """Inside a tool: the arguments exactly as the client sent them, before validation dropped extras.

    `ctx` is the tool's injected `Context`. The SDK ignores argument names it does not know; a tool
    that must be strict compares these names with the ones it takes.
    """
    params = ctx.request_context.params  # a plain dict in SDK 2.3, in both eras (claim request-params-are-a-plain-dict)
    return dict(params.get("arguments") or {})
