"""Lesson servers in child processes: they serve, and they always stop, even when the kernel that started them dies."""

from __future__ import annotations

import os
import signal
import time
import uuid
from pathlib import Path

import pytest

from conftest import ROOT, run_notebook
from course_lib import live, wire

TAG = "COURSE_LIVE_TEST"


def tagged(tag: str) -> list[int]:
    """Live processes (not zombies) whose environment carries TAG=tag, other than this one."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if f"{TAG}={tag}".encode() in (entry / "environ").read_bytes().split(b"\0"):
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def gone_within(tag: str, seconds: float) -> list[int]:
    """The tagged processes still alive after waiting up to `seconds` for them to end."""
    deadline = time.monotonic() + seconds
    while (left := tagged(tag)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def test_http_serves_a_real_client_and_stops_when_the_block_ends():
    from mcp import Client

    async def run() -> tuple[list[str], str]:
        async with live.http("clock") as url:
            async with Client(url) as client:
                names = [tool.name for tool in (await client.list_tools()).tools]
            assert live.running() == ["clock"]
        return names, url

    names, url = wire.run_sync(run)
    assert names == ["tz"] and url.startswith("http://127.0.0.1:")
    assert live.running() == [] and not live.answers(url)


def test_a_block_that_raises_still_stops_the_server():
    seen: list[str] = []

    async def run() -> None:
        async with live.http("clock") as url:
            seen.append(url)
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        wire.run_sync(run)
    assert live.running() == [] and not live.answers(seen[0])


def test_a_server_that_cannot_start_is_one_line_with_its_reason():
    async def run() -> None:
        async with live.http("no-such-server"):
            pass

    with pytest.raises(live.LiveServerError) as error:
        wire.run_sync(run)
    assert "\n" not in str(error.value) and "unknown server 'no-such-server'" in str(error.value)


def test_stdio_serves_a_real_client_with_the_user_flag():
    from mcp import Client

    async def run() -> str:
        async with Client(live.stdio("incidents", "--user", "ben")) as client:
            return (await client.call_tool("get_incident", {"incidentId": "INC-204"})).content[0].text

    assert "was not found, or you do not have access to it" in wire.run_sync(run)


def test_call_frames_keep_the_calls_and_mask_what_varies():
    frames = [("C->S", {"id": 1, "method": "server/discover"}), ("S->C", {"id": 1, "result": {}}),
              ("C->S", {"id": 2, "method": "tools/call", "params": {"_meta": {"x": 1}}}),
              ("S->C", {"id": 2, "result": {"requestState": "v1.abc", "resultType": "input_required"}}),
              ("C->S", {"id": 3, "method": "tools/call", "params": {"requestState": "v1.abc"}}),
              ("S->C", {"id": 3, "result": {"content": []}}), ("C->S", {"id": 4, "method": "tools/list"})]
    kept = live.call_frames(frames)
    assert [frame["id"] for _, frame in kept] == [2, 2, 3, 3]
    assert kept[0][1]["params"]["_meta"] == "…" and kept[1][1]["result"]["requestState"] == live.OPAQUE
    assert live.call_frames(frames[:2]) == []


@pytest.mark.skipif(not os.path.isdir("/proc") or not os.uname().sysname == "Linux", reason="needs Linux /proc")
def test_a_killed_kernel_leaves_no_server_behind(monkeypatch):
    """A kernel killed in the middle of two open blocks (stdio and HTTP): its children end too."""
    from jupyter_client.manager import start_new_kernel

    tag = uuid.uuid4().hex
    monkeypatch.setenv(TAG, tag)
    manager, client = start_new_kernel(kernel_name="python3", cwd=str(ROOT))
    try:
        client.execute(
            "from mcp import Client\nfrom course_lib import live\nimport anyio\n"
            "async with live.http('clock') as url:\n"
            "    async with Client(live.stdio('clock')) as c:\n"
            "        await c.list_tools()\n"
            "        await anyio.sleep(120)\n")
        deadline = time.monotonic() + 30
        while len(tagged(tag)) < 3 and time.monotonic() < deadline:  # kernel, HTTP child, stdio child
            time.sleep(0.1)
        time.sleep(0.5)
        started = tagged(tag)
        kernel = manager.provisioner.process.pid
        assert kernel in started and len(started) >= 3, started
        os.kill(kernel, signal.SIGKILL)
    finally:
        client.stop_channels()
    try:
        assert gone_within(tag, 10) == []
    finally:
        manager.cleanup_resources()


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs /proc")
def test_the_lesson_notebook_leaves_no_process_behind(monkeypatch):
    tag = uuid.uuid4().hex
    monkeypatch.setenv(TAG, tag)
    notebook = run_notebook(next((ROOT / "notebooks").glob("09_*.ipynb")), allow_errors=False)
    assert any("servers still running: []" in output.get("text", "")
               for cell in notebook.cells for output in cell.get("outputs", []))
    assert gone_within(tag, 5) == []
