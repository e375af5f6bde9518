"""course_lib.wire: connections in both eras, frame capture, wire dumps, SDK warnings."""

from __future__ import annotations

import json

import pytest
from mcp.server import MCPServer
from mcp.server.mcpserver import Context

from course_lib import wire
from course_lib.servers import weather


def test_connect_negotiates_the_requested_era():
    async def versions():
        out = []
        for era in wire.ERAS:
            async with wire.connect(weather.build_server(), era) as client:
                out.append(client.protocol_version)
        return out

    assert wire.run_sync(versions) == ["2026-07-28", "2025-11-25"]


def test_connect_rejects_an_unknown_era():
    async def go():
        async with wire.connect(weather.build_server(), "2024-01-01"):
            pass

    with pytest.raises(ValueError, match="unknown protocol era"):
        wire.run_sync(go)


@pytest.mark.parametrize("era, opening", [(wire.MODERN, ["server/discover"]),
                                          (wire.HANDSHAKE, ["initialize", "notifications/initialized"])])
def test_tap_records_real_json_rpc_frames(era, opening):
    tap = wire.Tap(weather.build_server())

    async def go():
        async with wire.connect(tap, era) as client:
            await client.call_tool("get_daily_forecast", {"city": "Oslo", "days": 1})

    wire.run_sync(go)
    methods = [frame.get("method") for direction, frame in tap.frames if direction == "C->S"]
    assert methods[: len(opening)] == opening and "tools/call" in methods
    assert all(frame["jsonrpc"] == "2.0" for _, frame in tap.frames)
    call = next(f for d, f in tap.frames if f.get("method") == "tools/call")
    reply = next(f for d, f in tap.frames if d == "S->C" and f.get("id") == call["id"])
    assert reply["result"]["structuredContent"]["city"] == "Oslo"
    has_envelope = "_meta" in call["params"]
    assert has_envelope is (era == wire.MODERN)


def test_dump_is_wire_form_and_to_json_is_compact():
    tools = wire.run_sync(wire.list_tools, weather.build_server())
    data = wire.dump(tools)
    assert isinstance(data, list) and "inputSchema" in data[0] and "input_schema" not in data[0]
    assert "null" not in json.dumps(data)
    compact = wire.to_json(tools[0])
    assert json.loads(compact) == data[0]
    assert wire.to_json(tools[0], indent=2).count("\n") > 5
    assert wire.dump({"a": [tools[0]]})["a"][0]["name"] == "weather"


def test_sdk_warnings_are_collected_not_printed(capsys):
    server = MCPServer("t", log_level="WARNING")
    with wire.sdk_warnings() as logged:
        server.add_tool(lambda: 1, name="has space")
        server.add_tool(lambda: 1, name="has space")
    assert any("has space" in line for line in logged)
    assert "Tool already exists: has space" in logged
    assert capsys.readouterr().err == ""


def test_run_sync_works_inside_a_running_event_loop():
    import anyio

    async def outer():
        return wire.run_sync(wire.call_tool, weather.build_server(), "weather", {"q": "Oslo"})

    assert anyio.run(outer).structured_content == {"result": "Oslo: around 12 and cloudy, maybe rain later."}


def test_dump_turns_every_value_into_its_json_type():
    import mcp_types

    resource = mcp_types.Resource(uri="res://notes/1", name="note")
    assert wire.dump(resource) == {"uri": "res://notes/1", "name": "note"}
    assert type(wire.dump(resource)["uri"]) is str

    import datetime
    import enum

    import pydantic

    class Level(enum.Enum):
        HIGH = "high"

    class Reply(pydantic.BaseModel):
        at: datetime.date
        level: Level

    assert wire.dump(Reply(at=datetime.date(2026, 12, 1), level=Level.HIGH)) == {"at": "2026-12-01", "level": "high"}
    assert wire.dump(({"k": resource}, 3, None)) == [{"k": {"uri": "res://notes/1", "name": "note"}}, 3, None]


def test_to_json_spacing_and_unicode_written_out():
    assert wire.to_json({"a": [1, "é"], "b": None}) == '{"a":[1,"é"],"b":null}'
    assert wire.to_json({"a": 1, "b": "ü"}, indent=2) == '{\n  "a": 1,\n  "b": "ü"\n}'


def test_tap_keeps_its_server_and_passes_through_items_without_a_message():
    import anyio

    server = weather.build_server()
    assert wire.Tap(server).server is server

    async def go():
        frames = []
        send, receive = anyio.create_memory_object_stream(2)
        tapped = wire._TappedStream(receive, frames, "S->C")
        problem = ValueError("a transport error travels as an item too")
        await send.send(problem)
        got = await tapped.receive()
        await send.aclose()
        await tapped.aclose()
        return got, problem, frames

    got, problem, frames = wire.run_sync(go)
    assert got is problem and frames == []


@pytest.mark.parametrize("era, first", [(wire.MODERN, "server/discover"), (wire.HANDSHAKE, "initialize")])
def test_list_tools_and_call_tool_speak_the_era_asked_for(era, first):
    tap = wire.Tap(weather.build_server())
    assert [tool.name for tool in wire.run_sync(wire.list_tools, tap, era)] == ["weather", "get_daily_forecast"]
    result = wire.run_sync(wire.call_tool, tap, "weather", {"q": "Oslo"}, era)
    assert not result.is_error
    assert [frame["method"] for d, frame in tap.frames if d == "C->S" and "method" in frame][0] == first
    assert wire.requests_sent(tap.frames, first) == 2
    assert wire.requests_sent(tap.frames, "tools/call") == 1
    assert wire.requests_sent([("S->C", {"method": "tools/call"})], "tools/call") == 0


@pytest.mark.parametrize("era", wire.ERAS)
def test_raw_arguments_sees_names_the_sdk_drops(era):
    server = MCPServer("raw")

    @server.tool()
    def echo(city: str, ctx: Context) -> dict[str, list[str]]:
        """Names the client sent."""
        return {"sent": sorted(wire.raw_arguments(ctx))}

    result = wire.run_sync(wire.call_tool, server, "echo", {"city": "Oslo", "citty": "x"}, era)
    assert result.structured_content == {"sent": ["citty", "city"]}


def test_client_cache_settings():
    store = wire.shared_cache_store()
    alone = wire.client_cache(share_public=True)
    assert alone.share_public is True and alone.store is None
    shared = wire.client_cache(store, user="ana", share_public=True, target="incidents")
    assert (shared.store, shared.partition, shared.share_public, shared.target_id) == (store, "ana", True, "incidents")
    anonymous = wire.client_cache(store)
    assert (anonymous.partition, anonymous.share_public, anonymous.target_id) == ("default", False, "course")


def counter_server():
    """A server whose tool records which session made each call and how many calls were in flight at once."""
    import anyio

    server, state = MCPServer("counter"), {"now": 0, "most": 0}

    @server.tool()
    async def step(n: int) -> dict[str, int]:
        """Record one call."""
        state["now"] += 1
        state["most"] = max(state["most"], state["now"])
        await anyio.sleep(0.05)
        state["now"] -= 1
        return {"n": n}

    return server, state


@pytest.mark.parametrize("clients", [1, 3])
def test_call_concurrently_makes_every_call_at_once_in_order(clients):
    server, state = counter_server()
    calls = [("step", {"n": n}) for n in range(6)]
    results = wire.run_sync(wire.call_concurrently, server, calls, clients)
    assert [result["structuredContent"] for result in results] == [{"n": n} for n in range(6)]
    assert state["most"] == 6


def test_call_concurrently_speaks_the_era_asked_for():
    server, _ = counter_server()
    tap = wire.Tap(server)  # one Tap carries one connection: one client
    wire.run_sync(wire.call_concurrently, tap, [("step", {"n": 1}), ("step", {"n": 2})], 1, wire.HANDSHAKE)
    assert wire.requests_sent(tap.frames, "initialize") == 1
    assert wire.requests_sent(tap.frames, "tools/list") == 1 and wire.requests_sent(tap.frames, "tools/call") == 2
    by_default = wire.Tap(server)  # one client, the modern era
    wire.run_sync(wire.call_concurrently, by_default, [("step", {"n": 3})])
    assert wire.requests_sent(by_default.frames, "server/discover") == 1
