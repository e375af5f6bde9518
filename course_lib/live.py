"""Lesson 09's live servers: a lesson server in a child process, over stdio or streamable HTTP, always cleaned up.

`stdio(name, ...)` is a transport for `Client(...)`: the SDK starts the child in its own process group
and kills that group when the client closes. `http(name, ...)` starts the child itself,
bound to 127.0.0.1 on a free port, waits until the port answers, yields the URL, and kills the child's
process group when the block ends, also when the block raises. On Linux every child also asks the
kernel for a signal when its parent dies (`prctl(PR_SET_PDEATHSIG)`), so a notebook kernel that is
restarted or killed in the middle of a block leaves no server behind. Both run `serving.command`.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from course_lib import serving
from course_lib.errors import CourseError

PR_SET_PDEATHSIG = 1
"""The `prctl` option (Linux, <sys/prctl.h>) that sends a signal to a process when its parent dies."""
READY_SECONDS = 15.0
"""How long `http` waits for the child's port to answer before it gives up."""

# Runs as `python -c GUARD PARENT_PID ARGV...`: ask for SIGTERM when the parent dies, make sure the
# parent is still the one that started us (it may have died before prctl), then become ARGV.
GUARD = ("import ctypes, os, signal, sys\n"
         "if sys.platform.startswith('linux'):\n"
         f"    ctypes.CDLL(None, use_errno=True).prctl({PR_SET_PDEATHSIG}, signal.SIGTERM)\n"
         "if os.getppid() != int(sys.argv[1]):\n"
         "    sys.exit(0)\n"
         "os.execv(sys.argv[2], sys.argv[2:])\n")

_children: dict[int, tuple[str, subprocess.Popen]] = {}  # pid -> (server name, process), for `running()`


class LiveServerError(CourseError):
    """A lesson server child process that did not start; the message carries its last line of stderr."""


def die_with_parent(parent: int) -> Callable[[], None]:
    """A `preexec_fn` for `subprocess.Popen`: the child gets SIGTERM when `parent` dies (Linux; elsewhere a no-op)."""

    def arrange() -> None:
        if sys.platform.startswith("linux"):
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != parent:  # the parent died before prctl took effect
            os._exit(0)

    return arrange


def guarded(argv: list[str]) -> list[str]:
    """`argv` wrapped so that the process it becomes dies with the process that starts it."""
    return [sys.executable, "-c", GUARD, str(os.getpid()), *argv]


def stdio_params(name: str, *flags: str):
    """The SDK's `StdioServerParameters` for lesson server `name` over stdio, e.g. `stdio_params("incidents", "--user", "ben")`.

    The child gets the SDK's default environment (not the kernel's whole environment) plus the course's
    own `COURSE_*` settings.
    """
    from mcp import StdioServerParameters
    from mcp.client.stdio import get_default_environment

    argv = guarded(serving.command(name, "--transport", "stdio", *flags))
    env = {**get_default_environment(), **{key: value for key, value in os.environ.items() if key.startswith("COURSE_")}}
    return StdioServerParameters(command=argv[0], args=argv[1:], env=env)


@asynccontextmanager
async def stdio(name: str, *flags: str) -> AsyncIterator[Any]:
    """A client transport (pass it to `Client(...)`) that runs lesson server `name` over stdio in a child process.

    The SDK starts the child in its own process group and ends the group when the block closes. The
    child's stderr goes to a temporary file: a notebook kernel's own stderr has no file descriptor.
    """
    from mcp import stdio_client

    with tempfile.TemporaryFile("w+") as log:
        async with stdio_client(stdio_params(name, *flags), errlog=log) as streams:
            yield streams


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind((serving.LOOPBACK, 0))
        return probe.getsockname()[1]


def _answers(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.2)
        return probe.connect_ex((serving.LOOPBACK, port)) == 0


def _last_line(log: Any) -> str:
    log.seek(0)
    lines = [line.strip() for line in log.read().decode("utf-8", "replace").splitlines() if line.strip()]
    return lines[-1] if lines else "no message"


def stop(process: subprocess.Popen, grace: float = 5.0) -> None:
    """End `process` and every process of its group: SIGTERM, then SIGKILL after `grace` seconds."""
    for sent in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(process.pid, sent)
        except ProcessLookupError:
            break
        try:
            process.wait(timeout=grace)
            break
        except subprocess.TimeoutExpired:
            continue


async def _ready(process: subprocess.Popen, name: str, port: int, log: Any) -> None:
    """Wait until `port` answers; `LiveServerError` if the child exits first or takes too long."""
    import anyio

    with anyio.move_on_after(READY_SECONDS):
        while not _answers(port):
            if process.poll() is not None:
                raise LiveServerError(f"{name} stopped before it served (exit {process.returncode}): {_last_line(log)}")
            await anyio.sleep(0.02)
        return
    raise LiveServerError(f"{name} did not answer on its port within {READY_SECONDS:g} s: {_last_line(log)}")


@asynccontextmanager
async def http(name: str, *flags: str) -> AsyncIterator[str]:
    """Serve lesson server `name` over streamable HTTP on 127.0.0.1 in a child process while the block runs; yields its URL."""
    port = free_port()
    argv = serving.command(name, "--transport", "http", "--host", serving.LOOPBACK, "--port", str(port), *flags)
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log,
                                   start_new_session=True, preexec_fn=die_with_parent(os.getpid()))
        _children[process.pid] = (name, process)
        try:
            await _ready(process, name, port, log)
            yield f"http://{serving.LOOPBACK}:{port}/mcp"
        finally:
            stop(process)


def running() -> list[str]:
    """The names of the lesson servers this process started with `http` that are still running."""
    for pid, (_, process) in list(_children.items()):
        if process.poll() is not None:
            del _children[pid]
    return sorted(name for name, _ in _children.values())


def answers(url: str) -> bool:
    """Whether anything on this machine still accepts connections at `url`'s port."""
    from urllib.parse import urlsplit

    return _answers(urlsplit(url).port or 80)


OPAQUE = "<opaque: minted and checked by the server>"


def _masked(value: Any) -> Any:
    """A frame with each `requestState` shown as OPAQUE and each `_meta` envelope as "…" (both vary per run)."""
    if isinstance(value, dict):
        return {key: OPAQUE if key == "requestState" else "…" if key == "_meta" else _masked(item)
                for key, item in value.items()}
    if isinstance(value, list):
        return [_masked(item) for item in value]
    return value


def call_frames(frames: list[tuple[str, dict]]) -> list[tuple[str, dict]]:
    """The frames from the first `tools/call` request to the last `tools/call` result, masked for printing.

    Whatever crosses in between stays (a 2025-11-25 server's `elicitation/create` and the client's
    reply); the connection's opening and the client's own `tools/list` after the call are left out.
    """
    calls = [index for index, (direction, frame) in enumerate(frames)
             if direction == "C->S" and frame.get("method") == "tools/call"]
    if not calls:
        return []
    ids = {frames[index][1].get("id") for index in calls}
    last = max((index for index, (direction, frame) in enumerate(frames)
                if direction == "S->C" and "method" not in frame and frame.get("id") in ids), default=calls[-1])
    return [(direction, _masked(frame)) for direction, frame in frames[calls[0]:last + 1]]
