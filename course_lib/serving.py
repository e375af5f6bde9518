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
          allow_hosts: tuple[str, ...] = (), **build_options: Any) -> None:
    """Build the lesson server `name` and serve it until interrupted (blocks; not for a notebook cell).

    Over HTTP a host beyond loopback needs `tokens` (`auth.BindingRefused` otherwise), and the
    Host/Origin checks stay on for every host, allowing loopback, `host` and `allow_hosts`.
    """
    from course_lib import auth, servers

    if transport not in TRANSPORTS:
        raise ValueError(f"unknown transport {transport!r}; use one of {', '.join(TRANSPORTS)}")
    if transport == "http":
        auth.check_binding(host, build_options.get("tokens"))
    server = servers.build(name, **build_options)
    if transport == "stdio":
        server.run()
    else:
        print(f"serving {name} at http://{host}:{port}/mcp (Ctrl-C stops)", file=sys.stderr)
        server.run("streamable-http", host=host, port=port,
                   transport_security=auth.transport_security(host, allow_hosts))


def add_options(parser) -> None:
    """The serving flags shared by `course serve` and `python -m course_lib.serving`."""
    parser.add_argument("--transport", choices=TRANSPORTS, default="stdio")
    parser.add_argument("--host", default=LOOPBACK,
                        help="where to listen over HTTP (default 127.0.0.1; any other host needs --tokens)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    parser.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                        help="also accept this Host/Origin name over HTTP (repeatable)")
    parser.add_argument("--user", help="the signed-in user over stdio, or over HTTP without tokens")
    parser.add_argument("--store", metavar="PATH", help="keep the data in this SQLite file (shared by processes)")
    parser.add_argument("--tokens", metavar="FILE",
                        help="bearer tokens for HTTP: JSON {token: user} or 'token user' lines")


def build_options(args) -> dict[str, Any]:
    """The server-factory keywords among parsed flags: only the ones given."""
    return {key: value for key in ("user", "store", "tokens") if (value := getattr(args, key)) is not None}


def command(name: str, *options: str) -> list[str]:
    """The argv that serves lesson server `name` in a child process, e.g. `command("clock", "--transport", "http")`."""
    return [sys.executable, "-m", "course_lib.serving", name, *options]


def main(argv: list[str] | None = None) -> int:
    """`python -m course_lib.serving NAME [--transport stdio|http] [--host H] [--port P] [--user U] ...`."""
    import argparse

    from course_lib import auth

    parser = argparse.ArgumentParser(prog="python -m course_lib.serving")
    parser.add_argument("server")
    add_options(parser)
    args = parser.parse_args(argv)
    try:
        serve(args.server, args.transport, args.host, args.port, tuple(args.allow_host), **build_options(args))
    except (auth.BindingRefused, auth.TokenFileProblem) as error:
        print(f"{parser.prog}: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
