"""Serving a course server outside the notebook: over stdio or streamable HTTP, in this process or a child.

`serve()` runs a registered lesson server until it is stopped (what `course serve` calls);
`command()` is the argv that runs one as a child process (`python -m course_lib.serving NAME`),
so tests, lessons and the CLI start servers the same way without going through the CLI.
"""

from __future__ import annotations

import sys
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
