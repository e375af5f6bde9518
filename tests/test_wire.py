"""course_lib.wire: connections in both eras, frame capture, wire dumps, SDK warnings."""

from __future__ import annotations

import json

import pytest
from mcp.server import MCPServer

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
