"""`course serve`: lesson servers reached by a real client over stdio and streamable HTTP."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

from conftest import ServedOverHttp
from course_lib import wire


def test_serve_over_stdio_answers_a_real_client():
    from mcp import StdioServerParameters

    params = StdioServerParameters(command=sys.executable, args=["-m", "course_lib.cli", "serve", "weather"])

    async def go():
        async with wire.connect(params, wire.HANDSHAKE) as client:
            names = [tool.name for tool in (await client.list_tools()).tools]
            result = await client.call_tool("get_daily_forecast", {"city": "Paris", "days": 1})
        return names, result

    names, result = wire.run_sync(go)
    assert names == ["weather", "get_daily_forecast"]
    assert result.structured_content["days"][0]["high"] == 16.0


@pytest.mark.parametrize("era", wire.ERAS)
def test_serve_over_http_answers_a_real_client(era):
    with ServedOverHttp("clock") as served:

        async def go():
            async with wire.connect(served.url, era) as client:
                return await client.call_tool("tz", {"x": "Tokyo"})

        assert wire.run_sync(go).structured_content == {"result": "2026-10-02T23:30 (+09:00)"}
    assert f"serving clock at {served.url}" in served.log


def serve(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "course_lib.cli", "serve", *args], capture_output=True, text=True,
                          timeout=60)


def refused(result: subprocess.CompletedProcess, says: str) -> None:
    assert result.returncode == 2 and result.stdout == "", result.stdout
    (line,) = result.stderr.strip().splitlines()
    assert line == f"course: {says}"


def test_a_taken_port_is_one_line_before_anything_says_serving():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        refused(serve("clock", "--transport", "http", "--port", str(port)),
                f"port {port} on 127.0.0.1 is taken (another program listens there); pass --port with a free one")


def test_a_server_without_sign_in_is_refused_beyond_loopback_without_advice_it_cannot_take():
    refused(serve("weather", "--transport", "http", "--host", "0.0.0.0"),
            "refusing to listen on 0.0.0.0: weather has no sign-in (it takes no --tokens), so anyone who can reach "
            "it could call its tools; serve it on 127.0.0.1")


def test_tokens_over_stdio_are_refused():
    refused(serve("incidents", "--tokens", "tokens.txt"),
            "--tokens works only over HTTP (--transport http); over stdio the caller is --user")


@pytest.mark.parametrize("args, says", [
    (("--port", "70000"), "cannot listen on port 70000: use a port from 0 to 65535"),
    (("--host", "localhost", "--port", "-1"), "cannot listen on port -1: use a port from 0 to 65535"),
])
def test_a_port_that_cannot_be_used_is_one_line(args, says):
    refused(serve("clock", "--transport", "http", *args), says)


def test_port_0_serves_on_a_free_port_and_says_which():
    """The "serving" line comes only once the socket listens, so a client can connect right after reading it."""
    process = subprocess.Popen([sys.executable, "-m", "course_lib.cli", "serve", "clock", "--transport", "http",
                                "--port", "0"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stderr.readline()
        assert line.startswith("serving clock at http://127.0.0.1:") and line.endswith("/mcp (Ctrl-C stops)\n")
        url = line.split(" at ")[1].split(" ")[0]
        assert not url.endswith(":0/mcp")

        async def go():
            async with wire.connect(url) as client:
                return [tool.name for tool in (await client.list_tools()).tools]

        assert wire.run_sync(go) == ["tz"]
    finally:
        process.terminate()
        process.communicate(timeout=15)
