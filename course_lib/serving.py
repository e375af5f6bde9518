"""Serving a course server outside the client's own process: over stdio or streamable HTTP.

`serve()` runs a registered lesson server until it is stopped (what `course serve` calls);
`command()` is the argv that runs one as a child process (`python -m course_lib.serving NAME`),
so tests, lessons and the CLI start servers the same way without going through the CLI;
`serve_http()` serves any server object over HTTP inside the running event loop while a block runs.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

TRANSPORTS = ("stdio", "http")
LOOPBACK = "127.0.0.1"
DEFAULT_PORT = 8765


def serve(name: str, transport: str = "stdio", host: str = LOOPBACK, port: int = DEFAULT_PORT,
          **build_options: Any) -> None:
    """Build the lesson server `name` and serve it until interrupted (blocks; not for a notebook cell)."""
    from course_lib import servers

    if transport not in TRANSPORTS:
        raise ValueError(f"unknown transport {transport!r}; use one of {', '.join(TRANSPORTS)}")
    server = servers.build(name, **build_options)
    if transport == "stdio":
        server.run()
    else:
        print(f"serving {name} at http://{host}:{port}/mcp (Ctrl-C stops)", file=sys.stderr)
        server.run("streamable-http", host=host, port=port)


def command(name: str, *options: str) -> list[str]:
    """The argv that serves lesson server `name` in a child process, e.g. `command("clock", "--transport", "http")`."""
    return [sys.executable, "-m", "course_lib.serving", name, *options]


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


def main(argv: list[str] | None = None) -> int:
    """`python -m course_lib.serving NAME [--transport stdio|http] [--host H] [--port P]`."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m course_lib.serving")
    parser.add_argument("server")
    parser.add_argument("--transport", choices=TRANSPORTS, default="stdio")
    parser.add_argument("--host", default=LOOPBACK)
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    args = parser.parse_args(argv)
    serve(args.server, args.transport, args.host, args.port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
