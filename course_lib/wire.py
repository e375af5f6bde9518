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


def run_sync(fn: Callable[..., Awaitable[T]], *args: Any) -> T:
    """Run an async function to completion from plain code, even inside a running notebook loop.

    A notebook kernel already runs an event loop, so `anyio.run` cannot be called there;
    a worker thread gets its own loop.
    """
    import anyio

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(anyio.run, fn, *args).result()
