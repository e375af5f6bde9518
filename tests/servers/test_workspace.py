"""Contract tests for lesson 06's workspace server: twelve tools, focused subsets, stable order, both eras."""

from __future__ import annotations

import pytest

from course_lib import review, wire
from course_lib.servers import base, workspace
from conftest import definitions, text

ERAS = pytest.mark.parametrize("era", wire.ERAS)


def calls(server, planned, era=wire.MODERN) -> list[dict]:
    async def run():
        async with wire.connect(server, era) as client:
            return [wire.dump(await client.call_tool(name, arguments)) for name, arguments in planned]

    return wire.run_sync(run)


@ERAS
def test_lists_every_area_in_canonical_order(era):
    assert list(definitions(workspace.build_server(), era)) == list(workspace.TOOL_NAMES)
    assert len(workspace.TOOL_NAMES) == 12 == len(set(workspace.TOOL_NAMES))


def test_focused_servers_keep_canonical_order_whatever_the_input_order():
    server = workspace.build_server({"tickets", "calendar"})
    assert server.name == "workspace-calendar-tickets"
    assert list(definitions(server)) == [*workspace.AREAS["calendar"], *workspace.AREAS["tickets"]]
    assert workspace.tool_area("send_message") == "mail"
    with pytest.raises(workspace.UnknownTool, match="unknown area"):
        workspace.build_server(["billing"])


def test_register_keeps_the_order_it_is_given_and_refuses_unknown_names():
    server = base.new_server("x")
    workspace.register(server, ["read_message", "get_ticket"])
    assert list(definitions(server)) == ["read_message", "get_ticket"]
    with pytest.raises(workspace.UnknownTool, match="unknown workspace tool 'nope'"):
        workspace.register(base.new_server("y"), ["nope"])


def test_every_tool_passes_the_design_review_and_has_structured_output_and_annotations():
    tools = definitions(workspace.build_server())
    assert review.review(list(tools.values())) == []
    for name, tool in tools.items():
        assert tool["outputSchema"]["type"] == "object", name
        assert "readOnlyHint" in tool["annotations"], name
        assert "\n    " not in tool["description"], name
    assert tools["cancel_event"]["annotations"]["destructiveHint"] is True
    assert tools["send_message"]["annotations"]["openWorldHint"] is True
    assert tools["search_tickets"]["inputSchema"]["properties"]["status"]["enum"] == ["open", "pending", "closed"]


def test_server_options_reach_the_sdk():
    from mcp.server import CacheHint

    server = workspace.build_server(cache_hints={"tools/list": CacheHint(ttl_ms=1000, scope="public")})

    async def run():
        tap = wire.Tap(server)
        async with wire.connect(tap) as client:
            await client.list_tools()
        return next(f["result"] for d, f in tap.frames if d == "S->C" and "tools" in f.get("result", {}))

    result = wire.run_sync(run)
    assert (result["ttlMs"], result["cacheScope"]) == (1000, "public")


@ERAS
def test_reads_return_structured_results(era):
    events, tickets, closed, message, document = calls(workspace.build_server(), [
        ("list_events", {"date": "2026-10-02"}),
        ("search_tickets", {"query": "login"}),
        ("search_tickets", {"query": "LOGIN", "status": "closed"}),
        ("read_message", {"message_id": "MSG-201"}),
        ("search_documents", {"query": "release"}),
    ], era)
    assert [e["id"] for e in events["structuredContent"]["events"]] == ["EV-101", "EV-102"]
    assert [t["id"] for t in tickets["structuredContent"]["tickets"]] == ["TCK-401"]
    assert [t["id"] for t in closed["structuredContent"]["tickets"]] == ["TCK-404"]
    assert message["structuredContent"]["sender"] == "priya@example.com"
    assert document["structuredContent"]["documents"] == [{"id": "DOC-301", "title": "Release checklist"}]
    assert '"EV-101"' in text(events)


def test_changes_stay_in_their_own_server():
    server = workspace.build_server()
    created, listed, cancelled, comment, shared, again = calls(server, [
        ("create_event", {"title": "Retro", "date": "2026-10-02", "start": "16:00"}),
        ("list_events", {"date": "2026-10-02"}),
        ("cancel_event", {"event_id": "EV-101"}),
        ("add_ticket_comment", {"ticket_id": "TCK-401", "comment": "Priya reported it too."}),
        ("add_document_access", {"document_id": "DOC-301", "email": "sam@example.com"}),
        ("add_document_access", {"document_id": "DOC-301", "email": "sam@example.com"}),
    ])
    assert created["structuredContent"] == {"id": "EV-104", "title": "Retro", "date": "2026-10-02", "start": "16:00",
                                            "minutes": 30}
    assert [e["id"] for e in listed["structuredContent"]["events"]] == ["EV-101", "EV-102", "EV-104"]
    assert cancelled["structuredContent"]["id"] == "EV-101"
    assert comment["structuredContent"]["comments"] == ["Priya reported it too."]
    assert shared["structuredContent"] == again["structuredContent"] == {
        "document_id": "DOC-301", "email": "sam@example.com", "role": "viewer"}
    fresh = calls(workspace.build_server(), [("get_ticket", {"ticket_id": "TCK-401"})])[0]
    assert fresh["structuredContent"]["comments"] == []


@ERAS
@pytest.mark.parametrize("name, arguments, says", [
    ("list_events", {"date": "2026-13-45"}, "is not a real date"),
    ("list_events", {"date": "tomorrow"}, "should match pattern"),
    ("cancel_event", {"event_id": "EV-999"}, "Call list_events"),
    ("read_message", {"message_id": "MSG-9"}, "Call search_messages"),
    ("send_message", {"to": "not an address", "subject": "s", "body": "b"}, "should match pattern"),
    ("read_document", {"document_id": "DOC-1"}, "Call search_documents"),
    ("add_document_access", {"document_id": "DOC-9", "email": "a@b.co"}, "Call search_documents"),
    ("get_ticket", {"ticket_id": "TCK-999"}, "Call search_tickets"),
    ("add_ticket_comment", {"ticket_id": "TCK-999", "comment": "x"}, "Call search_tickets"),
    ("search_tickets", {"query": "x"}, "at least 2 characters"),
    ("search_tickets", {"query": "login", "status": "archived"}, "'open', 'pending' or 'closed'"),
    ("create_event", {"title": "x", "date": "2026-10-02", "start": "25:00"}, "should match pattern"),
])
def test_bad_calls_are_tool_errors_that_say_what_to_change(era, name, arguments, says):
    result = calls(workspace.build_server(), [(name, arguments)], era)[0]
    assert result["isError"] is True
    assert says in text(result)
    assert review.leaks(text(result).split("[type=")[0]) == []
