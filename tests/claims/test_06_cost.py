"""Lesson 06's claims about SDK 2.3: the text copy of a structured result, and the tools/list cache hints."""

from __future__ import annotations

import json

import anyio
from mcp.server import CacheHint, MCPServer
from mcp.server.mcpserver import Context
from pydantic import BaseModel

from course_lib import wire
from claims_ledger import claim


class Out(BaseModel):
    city: str
    days: list[int]


def forecast_server(**options) -> MCPServer:
    server = MCPServer("forecasts", log_level="WARNING", **options)

    @server.tool(description="A forecast.")
    def forecast(city: str) -> Out:
        return Out(city=city, days=[1, 2])

    return server


@claim("sdk-text-copy-is-indented-json")
def test_the_text_block_of_a_structured_result_is_its_json_indented_by_two():
    result = wire.run_sync(wire.call_tool, forecast_server(), "forecast", {"city": "Oslo"})
    assert result.content[0].text == json.dumps(result.structured_content, indent=2)


async def listing_requests(server, era, calls=("default", "default", "default")) -> tuple[int, dict]:
    tap = wire.Tap(server)
    async with wire.connect(tap, era) as client:
        for mode in calls:
            await (client.list_tools() if mode == "default" else client.list_tools(cache_mode=mode))
    listed = next(frame["result"] for _, frame in tap.frames if "tools" in frame.get("result", {}))
    return wire.requests_sent(tap.frames, "tools/list"), {k: listed[k] for k in ("ttlMs", "cacheScope") if k in listed}


@claim("sdk-tools-list-cache-hints")
def test_default_hints_are_zero_and_private_and_a_client_caches_only_a_positive_ttl_in_2026():
    hinted = {"cache_hints": {"tools/list": CacheHint(ttl_ms=600_000, scope="public")}}
    assert anyio.run(listing_requests, forecast_server(), "2026-07-28") == (3, {"ttlMs": 0, "cacheScope": "private"})
    assert anyio.run(listing_requests, forecast_server(**hinted), "2026-07-28") == (
        1, {"ttlMs": 600_000, "cacheScope": "public"})
    assert anyio.run(listing_requests, forecast_server(**hinted), "2025-11-25") == (3, {})
    bypass_refresh = ("default", "bypass", "default", "refresh", "default")
    assert anyio.run(listing_requests, forecast_server(**hinted), "2026-07-28", bypass_refresh)[0] == 3


@claim("sdk-list-changed-evicts-cached-tools-list")
def test_a_tools_list_changed_notification_evicts_the_cached_listing():
    server = forecast_server(cache_hints={"tools/list": CacheHint(ttl_ms=600_000, scope="private")})
    @server.tool(description="Add a tool and say so.")
    async def grow(ctx: Context) -> str:
        server.add_tool(lambda x: x, name="added", description="Added.")
        await ctx.notify_tools_changed()
        return "grown"

    async def run() -> tuple[int, list[str]]:
        tap = wire.Tap(server)
        async with wire.connect(tap) as client:
            await client.list_tools()
            async with client.listen(tools_list_changed=True) as stream:
                await client.call_tool("grow", {})
                with anyio.fail_after(30):
                    async for _event in stream:
                        break
            names = [tool.name for tool in (await client.list_tools()).tools]
        return wire.requests_sent(tap.frames, "tools/list"), names

    sent, names = anyio.run(run)
    assert sent == 2 and "added" in names
