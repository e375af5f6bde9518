"""What the course's own servers share: a quiet `MCPServer` and tools whose descriptions are stable across Pythons.

Lesson cells use the SDK directly (`MCPServer(...)`, `@server.tool()`); the servers under
`course_lib/servers/` use these two helpers so that their multi-line docstrings reach the wire
identically on Python 3.11 to 3.13 (see `course_lib.docstrings`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def new_server(name: str, **kwargs: Any):
    """A fresh `MCPServer` that keeps the kernel's log quiet (the SDK default is INFO) and reports the course's
    version in `serverInfo`, so a host (and `course snapshot`) can tell which release it talks to."""
    from mcp.server import MCPServer

    from course_lib import __version__

    kwargs.setdefault("log_level", "WARNING")
    kwargs.setdefault("version", __version__)
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
