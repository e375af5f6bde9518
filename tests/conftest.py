"""Shared fixtures: the course root, a network guard, and notebook execution."""

from __future__ import annotations

import socket
from pathlib import Path

import nbformat
import pytest

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


def run_notebook(path: Path, allow_errors: bool = True) -> nbformat.NotebookNode:
    """Execute a copy of a notebook in a fresh kernel with cwd = its folder."""
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    NotebookClient(notebook, timeout=120, kernel_name="python3", allow_errors=allow_errors,
                   record_timing=False, resources={"metadata": {"path": str(path.parent)}}).execute()
    return notebook


def errors_of(cell) -> list:
    return [output for output in cell.get("outputs", []) if output.output_type == "error"]
