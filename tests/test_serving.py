"""`course serve`: lesson servers reached by a real client over stdio and streamable HTTP."""

from __future__ import annotations

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
