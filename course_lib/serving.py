"""Serving a course server outside the client's own process: over stdio or streamable HTTP.

`serve()` runs a registered lesson server until it is stopped (what `course serve` calls);
`command()` is the argv that runs one as a child process (`python -m course_lib.serving NAME`),
so tests, lessons and the CLI start servers the same way without going through the CLI;
`serve_http()` serves any server object over HTTP inside the running event loop while a block runs.
"""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

TRANSPORTS = ("stdio", "http")
STORE_ENV = "COURSE_STORE"
"""Where the incident desk keeps its data when `--store` is not given: keeps a password off the command line."""
LOOPBACK = "127.0.0.1"
DEFAULT_PORT = 8765


def serve(name: str, transport: str = "stdio", host: str = LOOPBACK, port: int = DEFAULT_PORT,
          allow_hosts: tuple[str, ...] = (), **build_options: Any) -> None:
    """Build the lesson server `name` and serve it until interrupted (blocks; not for a notebook cell).

    Over HTTP a host beyond loopback needs a server that takes `tokens`, and the tokens
    (`auth.BindingRefused` otherwise); the Host/Origin checks stay on for every host, allowing
    loopback, `host` and `allow_hosts`. The port is taken before anything says "serving".
    """
    import inspect

    from course_lib import auth, servers
    from course_lib.errors import UsageError

    if transport not in TRANSPORTS:
        raise UsageError(f"unknown transport {transport!r}; use one of {', '.join(TRANSPORTS)}")
    takes = set(inspect.signature(servers.factory(name)).parameters)
    if "store" in takes and "store" not in build_options and os.environ.get(STORE_ENV):
        build_options["store"] = os.environ[STORE_ENV]
    unused = sorted(set(build_options) - takes)
    if unused:
        raise UsageError(f"{name} does not take {', '.join('--' + option for option in unused)}")
    if transport == "stdio" and "tokens" in build_options:
        raise UsageError("--tokens works only over HTTP (--transport http); over stdio the caller is --user")
    if transport == "http" and not auth.is_loopback(host) and "tokens" not in takes:
        raise auth.BindingRefused(f"refusing to listen on {host}: {name} has no sign-in (it takes no --tokens), so "
                                  "anyone who can reach it could call its tools; serve it on 127.0.0.1")
    if transport == "http":
        auth.check_binding(host, build_options.get("tokens"))
        warning = auth.clear_text_warning(host, build_options.get("tokens"))
        if warning:
            print(warning, file=sys.stderr)
    server = servers.build(name, **build_options)  # an unknown user or a bad token file fails here, as one line
    if "store" in build_options:
        from course_lib import incident_store

        print(f"{name} keeps its data in {incident_store.redacted(build_options['store'])}", file=sys.stderr)
    if transport == "stdio":
        server.run()
        return
    listening = listen(host, port)
    app = server.streamable_http_app(host=host, transport_security=auth.transport_security(host, allow_hosts))
    if build_options.get("tokens"):
        app = auth.BearerChallenge(app)
    print(f"serving {name} at http://{_url_host(host)}:{listening.getsockname()[1]}/mcp (Ctrl-C stops)",
          file=sys.stderr, flush=True)
    _run(app, listening, server.settings.log_level.lower())


def listen(host: str, port: int):
    """A socket listening on host:port (port 0: a free one), or UsageError saying in one line why not."""
    import errno
    import socket

    from course_lib.errors import UsageError

    bare = host.strip("[]")
    try:
        return socket.create_server((bare, port), family=socket.AF_INET6 if ":" in bare else socket.AF_INET)
    except socket.gaierror:
        raise UsageError(f"cannot listen on {host}: no such host name or address") from None
    except OverflowError:
        raise UsageError(f"cannot listen on port {port}: use a port from 0 to 65535") from None
    except OSError as error:
        why = {errno.EADDRINUSE: f"port {port} on {host} is taken (another program listens there); pass --port "
                                 "with a free one",
               errno.EADDRNOTAVAIL: f"cannot listen on {host}: it is not an address of this machine",
               errno.EACCES: f"no permission to listen on port {port}: use a port above 1023"}
        raise UsageError(why.get(error.errno, f"cannot listen on {host}:{port}: {error.strerror}")) from None


def _url_host(host: str) -> str:
    """A host as it goes in a URL (IPv6 in brackets)."""
    return f"[{host.strip('[]')}]" if ":" in host else host


def _run(app: Any, listening, log_level: str) -> None:
    """Serve an ASGI app on an already-listening socket until interrupted."""
    import uvicorn

    uvicorn.Server(uvicorn.Config(app, log_level=log_level)).run(sockets=[listening])


def add_options(parser) -> None:
    """The serving flags shared by `course serve` and `python -m course_lib.serving`."""
    parser.add_argument("--transport", choices=TRANSPORTS, default="stdio")
    parser.add_argument("--host", default=LOOPBACK,
                        help="where to listen over HTTP (default 127.0.0.1; any other host needs --tokens)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    parser.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                        help="also accept this Host/Origin name over HTTP (repeatable)")
    parser.add_argument("--user", help="the signed-in user over stdio, or over HTTP without tokens")
    parser.add_argument("--store", metavar="PATH|URL",
                        help="keep the data in this SQLite file, or a postgresql:// database (shared by processes; "
                             f"default ${STORE_ENV}, which keeps a password off the command line)")
    parser.add_argument("--tokens", metavar="FILE",
                        help="bearer tokens for HTTP: JSON {token: user} or 'token user' lines")


def build_options(args) -> dict[str, Any]:
    """The server-factory keywords among parsed flags: only the ones given."""
    return {key: value for key in ("user", "store", "tokens") if (value := getattr(args, key)) is not None}


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
    """`python -m course_lib.serving NAME [--transport stdio|http] [--host H] [--port P] [--user U] ...`."""
    import argparse

    from course_lib.errors import CourseError

    parser = argparse.ArgumentParser(prog="python -m course_lib.serving")
    parser.add_argument("server")
    add_options(parser)
    args = parser.parse_args(argv)
    try:
        serve(args.server, args.transport, args.host, args.port, tuple(args.allow_host), **build_options(args))
    except CourseError as error:
        print(f"{parser.prog}: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
