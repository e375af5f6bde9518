"""Lesson 06's claims about SDK 2.3: the text copy of a structured result, and the tools/list cache hints."""

from __future__ import annotations

import json
import re

import anyio
from mcp.server import CacheHint, MCPServer
from mcp.server.mcpserver import Context
from pydantic import BaseModel

from course_lib import wire
from claims_ledger import cited_paragraphs, claim


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
    (paragraph,) = cited_paragraphs("sdk-text-copy-is-indented-json")
    stated = re.search(r"the SDK pretty-prints it \(`indent=(\d+)`\)", paragraph)
    assert stated, paragraph
    result = wire.run_sync(wire.call_tool, forecast_server(), "forecast", {"city": "Oslo"})
    assert result.content[0].text == json.dumps(result.structured_content, indent=int(stated[1]))


async def listing_requests(server, era, calls=("default", "default", "default")) -> tuple[int, dict]:
    tap = wire.Tap(server)
    async with wire.connect(tap, era) as client:
        for mode in calls:
            await (client.list_tools() if mode == "default" else client.list_tools(cache_mode=mode))
    listed = next(frame["result"] for _, frame in tap.frames if "tools" in frame.get("result", {}))
    return wire.requests_sent(tap.frames, "tools/list"), {k: listed[k] for k in ("ttlMs", "cacheScope") if k in listed}


@claim("sdk-tools-list-cache-hints")
def test_default_hints_are_zero_and_private_and_a_client_caches_only_a_positive_ttl_in_2026():
    (stated,) = [found for paragraph in cited_paragraphs("sdk-tools-list-cache-hints") if (found := re.search(
        r"The SDK sends `ttlMs: (\d+)` and `\"(\w+)\"` unless the server sets `cache_hints=`", paragraph))]
    # lesson 06 c29 names the same default: a 2026-07-28 client lists again after a result whose ttlMs is 0
    (relists,) = [found for paragraph in cited_paragraphs("sdk-tools-list-cache-hints") if (found := re.search(
        r"when a (\d{4}-\d{2}-\d{2}) client lists tools again after a result whose `ttlMs` is (\d+), the SDK's default",
        " ".join(paragraph.split())))]
    assert relists[1] == "2026-07-28" and relists[2] == stated[1], relists.groups()
    hinted = {"cache_hints": {"tools/list": CacheHint(ttl_ms=600_000, scope="public")}}
    assert anyio.run(listing_requests, forecast_server(), "2026-07-28") == (
        3, {"ttlMs": int(stated[1]), "cacheScope": stated[2]})
    assert anyio.run(listing_requests, forecast_server(**hinted), "2026-07-28") == (
        1, {"ttlMs": 600_000, "cacheScope": "public"})
    assert anyio.run(listing_requests, forecast_server(**hinted), "2025-11-25") == (3, {})
    assert anyio.run(bypass_and_refresh, forecast_server(**hinted)) == [
        ("default", ["forecast"], 1),            # cached for 10 minutes; then the server adds a tool
        ("default", ["forecast"], 0),            # served from the cache: the old list
        ("bypass", ["added", "forecast"], 1),    # "skips the cache": fetched ...
        ("default", ["forecast"], 0),            # ... and not stored
        ("refresh", ["added", "forecast"], 1),   # "fetches and stores again" ...
        ("default", ["added", "forecast"], 0)]   # ... so the next default listing is the new one, with no request


async def bypass_and_refresh(server) -> list[tuple[str, list[str], int]]:
    """Each listing mode in turn, with a tool added after the first: what it returned, how many requests it sent."""
    tap, seen = wire.Tap(server), []
    async with wire.connect(tap, "2026-07-28") as client:
        for number, mode in enumerate(("default", "default", "bypass", "default", "refresh", "default")):
            before = wire.requests_sent(tap.frames, "tools/list")
            listed = await (client.list_tools() if mode == "default" else client.list_tools(cache_mode=mode))
            seen.append((mode, sorted(tool.name for tool in listed.tools),
                         wire.requests_sent(tap.frames, "tools/list") - before))
            if number == 0:
                server.add_tool(lambda x: x, name="added", description="Added.")
    return seen


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


FROM_A_SET = '''from mcp.server import MCPServer
from course_lib.servers import workspace


def build_workspace_from_config():
    server = MCPServer("workspace", log_level="WARNING")
    state = workspace.Workspace()
    for area in {"calendar", "mail", "documents", "tickets"}:
        workspace.register(server, workspace.AREAS[area], state)
    return server
'''
SCRIPT = [
    ("What is on the calendar today?", "list_events", {"date": "2026-10-02"}),
    ("Any open tickets about login?", "search_tickets", {"query": "login"}),
    ("Show me that ticket.", "get_ticket", {"ticket_id": "TCK-401"}),
    ("Did anyone email about it?", "search_messages", {"query": "login"}),
    ("Open the first one.", "read_message", {"message_id": "MSG-201"}),
    ("Note on the ticket that Priya reported it too.", "add_ticket_comment",
     {"ticket_id": "TCK-401", "comment": "Also reported by Priya."}),
    ("Find the release checklist.", "search_documents", {"query": "release checklist"}),
    ("What does it say?", "read_document", {"document_id": "DOC-301"}),
    ("Book a 30-minute release review on Monday at 10:00.", "create_event",
     {"title": "Release review", "date": "2026-10-05", "start": "10:00"}),
    ("And what is on Monday now?", "list_events", {"date": "2026-10-05"}),
]
SYSTEM = "You are the team's workspace assistant. Use the tools; ask before sending mail or changing the calendar."


@claim("lesson-06-cache-costs")
def test_the_cache_costs_lesson_06_states_are_the_simulated_ones():
    """Lesson 06's ten-turn conversation, as its cells build it, under the three caches: the sentence's figures."""
    from course_lib import cost
    from course_lib.servers import workspace

    from claims_ledger import cited_paragraphs

    async def exchanges() -> list[tuple[str, str]]:
        found = []
        async with wire.connect(workspace.build_server()) as client:
            for user, name, arguments in SCRIPT:
                result = await client.call_tool(name, arguments)
                found.append((user, json.dumps({"call": name, "arguments": arguments}) + wire.to_json(result)))
        return found

    talk = anyio.run(exchanges)
    tools = wire.run_sync(wire.list_tools, workspace.build_server())
    listings = cost.listings_of_source(FROM_A_SET, "build_workspace_from_config", (0, 1, 2, 3))
    orders = {"stable": [cost.host_listing(tools)] * 10,
              "set": [cost.host_listing(json.loads(listings[turn % 4].listing)) for turn in range(10)]}
    prompts = {order: cost.conversation_prompts(listed, SYSTEM, talk) for order, listed in orders.items()}
    price = {(label, order): round(cost.input_cost(simulate(prompts[order]), 0.1, write), 2)
             for label, simulate, write in (
                 ("openai", cost.simulate_prefix_cache, 1.0),
                 ("a1024", lambda p: cost.simulate_breakpoint_cache(p, 1024), 1.25),
                 ("a4096", lambda p: cost.simulate_breakpoint_cache(p, 4096), 1.25))
             for order in prompts}
    longest = max(len(prompt) for listed in prompts.values() for prompt in listed)
    (sentence,) = cited_paragraphs("lesson-06-cache-costs")
    stated = re.search(r"0\.1× .*?(\d\.\d\d) of the uncached price against (\d\.\d\d); at\s+Anthropic's 1,024-token "
                       r"minimum, (\d\.\d\d) against (\d\.\d\d).*?the longest prompt here is ([\d,]+) tokens", sentence)
    assert stated, f"the sentence no longer states the figures in the tested form: {sentence}"
    assert tuple(float(n) for n in stated.groups()[:4]) == (
        price["openai", "set"], price["openai", "stable"], price["a1024", "set"], price["a1024", "stable"])
    assert int(stated.group(5).replace(",", "")) == longest < 4096
    assert price["a4096", "set"] == price["a4096", "stable"] == 1.0
