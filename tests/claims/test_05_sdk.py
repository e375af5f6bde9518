"""Lesson 05's claim about SDK 2.3: an in-process 2026-07-28 client waits for a synchronous tool past its timeout,
and the client never retries a call that timed out."""

from __future__ import annotations

import time

import anyio
from mcp import MCPError
from mcp.server import MCPServer

from course_lib import wire
from claims_ledger import claim


RUNS: list[str] = []
"""One entry per time the slow tool's body ran."""


def slow_server() -> MCPServer:
    server = MCPServer("slow", log_level="WARNING")

    @server.tool(description="Take half a second.")
    def slow() -> str:
        RUNS.append("run")
        time.sleep(0.5)
        return "done"

    return server


async def call_with_timeout(era: str) -> str:
    async with wire.connect(slow_server(), era) as client:
        try:
            result = await client.call_tool("slow", {}, read_timeout_seconds=0.1)
        except MCPError as error:
            await anyio.sleep(1.5)  # three times the tool's run: room for any retry to start and finish
            return error.message
        return result.content[0].text


@claim("sdk-in-process-2026-client-waits-for-sync-tool")
def test_only_the_2025_client_times_out_on_a_synchronous_tool():
    RUNS.clear()
    assert anyio.run(call_with_timeout, "2025-11-25") == "Request 'tools/call' timed out"
    assert RUNS == ["run"]  # the client gave up and did not send the call again: no retry by itself
    assert anyio.run(call_with_timeout, "2026-07-28") == "done"
