"""Shared fixtures: the course root, a network guard, and notebook execution."""

from __future__ import annotations

import socket
from pathlib import Path

import nbformat
import pytest
from claim_skips import pytest_runtest_makereport  # noqa: F401 - a hook: a claim test may not skip
from quiet_worker_exit import pytest_sessionfinish  # noqa: F401 - a hook: an xdist worker ends quietly

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def no_network(monkeypatch):
    """Fail any test that tries to reach beyond this machine (the course must work offline)."""
    real_connect = socket.socket.connect

    def guarded(self, address):
        host = address[0] if isinstance(address, tuple) else address
        if self.family in (socket.AF_INET, socket.AF_INET6) and host not in ("127.0.0.1", "::1", "localhost"):
            raise OSError(f"network access in a test: {address!r}")
        return real_connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", guarded)


def wait_until(ready, what: str, process=None, timeout: float = 120.0, log=lambda: "") -> None:
    """Poll `ready()` until it is true; fail at once, saying why, if `process` exits, and after `timeout` seconds.

    The budget is generous (machines under `-n auto` are slow), and the failure names what never happened,
    instead of a later assertion failing on a missing file or a refused connection.
    """
    import time

    deadline = time.monotonic() + timeout
    while not ready():
        if process is not None and process.poll() is not None:
            pytest.fail(f"{what}: the process exited with code {process.returncode} first. {log()}"[:2000])
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: not ready after {timeout:g} s (a slow or overloaded machine?). {log()}"[:2000])
        time.sleep(0.05)


def run_notebook(path: Path, allow_errors: bool = True) -> nbformat.NotebookNode:
    """Execute a copy of a notebook in a fresh kernel with cwd = its folder."""
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    NotebookClient(notebook, timeout=120, kernel_name="python3", allow_errors=allow_errors,
                   record_timing=False, resources={"metadata": {"path": str(path.parent)}}).execute()
    return notebook


def definitions(server, era="2026-07-28") -> dict[str, dict]:
    """The server's tool definitions in wire form, by name, as a real client lists them."""
    from course_lib import wire

    return {tool["name"]: tool for tool in wire.dump(wire.run_sync(wire.list_tools, server, era))}


def call(server, name: str, arguments: dict, era="2026-07-28") -> dict:
    """One tools/call through a real in-process client; the result in wire form."""
    from course_lib import wire

    return wire.dump(wire.run_sync(wire.call_tool, server, name, arguments, era))


def text(result: dict) -> str:
    """All text content of a wire-form result."""
    from course_lib.checks.core import result_text

    return result_text(result)


class ServedOverHttp:
    """A `course serve NAME --transport http` child process on a free loopback port."""

    def __init__(self, name: str):
        import subprocess
        import sys

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url, self.log = f"http://127.0.0.1:{self.port}/mcp", ""
        self._process = subprocess.Popen(
            [sys.executable, "-m", "course_lib.cli", "serve", name, "--transport", "http", "--port", str(self.port)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        def listening() -> bool:
            with socket.socket() as probe:
                return probe.connect_ex(("127.0.0.1", self.port)) == 0

        wait_until(listening, f"course serve {name} over HTTP on port {self.port}", self._process)

    def __enter__(self) -> "ServedOverHttp":
        return self

    def __exit__(self, *exc) -> None:
        self._process.terminate()
        self.log = self._process.communicate(timeout=15)[1]


def errors_of(cell) -> list:
    return [output for output in cell.get("outputs", []) if output.output_type == "error"]


def server_info(server):
    """What the server tells a real client about itself in the handshake (`serverInfo`: name, version)."""
    from course_lib import wire

    async def ask():
        async with wire.connect(server) as client:
            return client.server_info

    return wire.run_sync(ask)
