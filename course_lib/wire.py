"""The SDK seam: the one place that touches the moving parts of the MCP SDK.

Connect to a server in process in either protocol era, record the exact JSON-RPC frames (`Tap`),
dump any SDK object in its wire form, run async code from plain code, and collect the SDK's log
lines. Private `mcp.*` modules are imported here and nowhere else (a test checks).
"""

from __future__ import annotations

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

    from course_lib.lazy_imports import defer_iri_grammar

    defer_iri_grammar()  # the client imports jsonschema to validate results: 0.7 s saved per process
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


def raw_arguments(ctx: Any) -> dict[str, Any]:
    """Inside a tool: the arguments exactly as the client sent them, before validation dropped extras.

    `ctx` is the tool's injected `Context`. The SDK ignores argument names it does not know; a tool
    that must be strict compares these names with the ones it takes.
    """
    params = ctx.request_context.params  # a plain dict in SDK 2.3, in both eras (tests/test_wire.py checks)
    return dict(params.get("arguments") or {})
