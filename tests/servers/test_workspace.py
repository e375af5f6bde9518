"""Contract tests for lesson 06's workspace server: twelve tools, focused subsets, stable order, both eras."""

from __future__ import annotations

import pytest

from course_lib import review, wire
from course_lib.servers import base, workspace
from conftest import definitions, text, server_info

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


# --- the seed data and each tool's results, field by field -----------------------------------------


def test_the_calendar_starts_with_three_events_on_two_days():
    first_day, second_day, empty = calls(workspace.build_server(), [
        ("list_events", {"date": "2026-10-02"}),
        ("list_events", {"date": "2026-10-05"}),
        ("list_events", {"date": "2026-10-03"}),
    ])
    assert first_day["structuredContent"] == {"date": "2026-10-02", "events": [
        {"id": "EV-101", "title": "Sprint planning", "date": "2026-10-02", "start": "09:30", "minutes": 60},
        {"id": "EV-102", "title": "Design review", "date": "2026-10-02", "start": "14:00", "minutes": 45},
    ]}
    assert second_day["structuredContent"] == {"date": "2026-10-05", "events": [
        {"id": "EV-103", "title": "One-to-one with Priya", "date": "2026-10-05", "start": "11:00", "minutes": 30},
    ]}
    assert empty["structuredContent"] == {"date": "2026-10-03", "events": []}


def test_events_are_listed_in_start_order_and_each_new_one_gets_the_next_id():
    early, late, listed, cancelled, left = calls(workspace.build_server(), [
        ("create_event", {"title": "Stand-up", "date": "2026-10-05", "start": "08:45", "minutes": 15}),
        ("create_event", {"title": "Retro", "date": "2026-10-05", "start": "16:00", "minutes": 90}),
        ("list_events", {"date": "2026-10-05"}),
        ("cancel_event", {"event_id": "EV-103"}),
        ("list_events", {"date": "2026-10-05"}),
    ])
    assert early["structuredContent"] == {"id": "EV-104", "title": "Stand-up", "date": "2026-10-05",
                                          "start": "08:45", "minutes": 15}
    assert late["structuredContent"] == {"id": "EV-105", "title": "Retro", "date": "2026-10-05",
                                         "start": "16:00", "minutes": 90}
    assert [e["id"] for e in listed["structuredContent"]["events"]] == ["EV-104", "EV-103", "EV-105"]
    assert cancelled["structuredContent"] == {"id": "EV-103", "title": "One-to-one with Priya",
                                              "date": "2026-10-05", "start": "11:00", "minutes": 30}
    assert [e["id"] for e in left["structuredContent"]["events"]] == ["EV-104", "EV-105"]


def test_every_ticket_starts_without_comments_and_with_its_own_title_and_status():
    read = calls(workspace.build_server(), [("get_ticket", {"ticket_id": f"TCK-40{n}"}) for n in range(1, 6)])
    assert [r["structuredContent"] for r in read] == [
        {"id": "TCK-401", "title": "Login fails after a password reset", "status": "open", "comments": []},
        {"id": "TCK-402", "title": "Invoice shows the wrong VAT rate", "status": "pending", "comments": []},
        {"id": "TCK-403", "title": "Export to CSV times out", "status": "open", "comments": []},
        {"id": "TCK-404", "title": "Login page is slow", "status": "closed", "comments": []},
        {"id": "TCK-405", "title": "Add a dark mode", "status": "closed", "comments": []},
    ]


def test_search_tickets_filters_by_status_and_matches_words_of_the_title():
    pending, closed, dark = calls(workspace.build_server(), [
        ("search_tickets", {"query": "vat rate", "status": "pending"}),
        ("search_tickets", {"query": "login", "status": "closed"}),
        ("search_tickets", {"query": "DARK mode", "status": "closed"}),
    ])
    assert pending["structuredContent"] == {"query": "vat rate", "status": "pending", "tickets": [
        {"id": "TCK-402", "title": "Invoice shows the wrong VAT rate", "status": "pending"}]}
    assert closed["structuredContent"]["tickets"] == [{"id": "TCK-404", "title": "Login page is slow", "status": "closed"}]
    assert dark["structuredContent"]["tickets"] == [{"id": "TCK-405", "title": "Add a dark mode", "status": "closed"}]


def test_search_messages_looks_in_subject_and_body_and_keeps_inbox_order():
    in_body, in_subject, one, none = calls(workspace.build_server(), [
        ("search_messages", {"query": "customers"}),  # only in the bodies of MSG-201 and MSG-202
        ("search_messages", {"query": "login"}),  # only in the subject of MSG-201
        ("search_messages", {"query": "customers", "limit": 1}),
        ("search_messages", {"query": "customers friday"}),  # each word is somewhere, never in one message
    ])
    assert in_body["structuredContent"] == {"query": "customers", "messages": [
        {"id": "MSG-201", "sender": "priya@example.com", "subject": "Login failures after the update"},
        {"id": "MSG-202", "sender": "billing@example.com", "subject": "VAT on October invoices"},
    ]}
    assert in_subject["structuredContent"]["messages"] == [
        {"id": "MSG-201", "sender": "priya@example.com", "subject": "Login failures after the update"}]
    assert [m["id"] for m in one["structuredContent"]["messages"]] == ["MSG-201"]
    assert none["structuredContent"] == {"query": "customers friday", "messages": []}


def test_read_message_returns_the_whole_message():
    read = calls(workspace.build_server(), [("read_message", {"message_id": "MSG-202"})])[0]
    assert read["structuredContent"] == {
        "id": "MSG-202", "sender": "billing@example.com", "subject": "VAT on October invoices",
        "body": "The October invoices for Norwegian customers show 20% VAT instead of 25%."}


def test_search_and_read_documents():
    in_text, in_title, read = calls(workspace.build_server(), [
        ("search_documents", {"query": "test suite"}),  # only in DOC-301's text
        ("search_documents", {"query": "handbook"}),  # only in DOC-302's title
        ("read_document", {"document_id": "DOC-302"}),
    ])
    assert in_text["structuredContent"] == {"query": "test suite",
                                            "documents": [{"id": "DOC-301", "title": "Release checklist"}]}
    assert in_title["structuredContent"]["documents"] == [{"id": "DOC-302", "title": "On-call handbook"}]
    assert read["structuredContent"] == {"id": "DOC-302", "title": "On-call handbook",
                                         "text": "Page the secondary after 15 minutes without an answer."}


def test_matches_needs_every_word_and_never_across_two_texts():
    assert workspace._matches("LOGIN reset", "Login fails after a password reset") is True
    assert workspace._matches("login slow", "Login fails after a password reset") is False
    assert workspace._matches("update since", "Login failures after the update", "Since this morning") is True
    # "Max" + "Xavier" run together would contain "xx": the texts are kept apart by a space
    assert workspace._matches("xx", "Max", "Xavier") is False


# --- state a host or lesson shares between servers -------------------------------------------------


def shared(state: workspace.Workspace, *names: str):
    server = base.new_server("shared")
    workspace.register(server, names, state)
    return server


def test_sent_mail_is_numbered_and_kept_in_the_state():
    state = workspace.Workspace()
    first, second = calls(shared(state, "send_message"), [
        ("send_message", {"to": "priya@example.com", "subject": "Login fix", "body": "Deployed at noon."}),
        ("send_message", {"to": "sam@example.com", "subject": "Checklist", "body": "Reviewed, two comments."}),
    ])
    assert first["structuredContent"] == {"id": "OUT-1", "to": "priya@example.com", "subject": "Login fix"}
    assert second["structuredContent"] == {"id": "OUT-2", "to": "sam@example.com", "subject": "Checklist"}
    assert state.sent == [workspace.SentMessage(id="OUT-1", to="priya@example.com", subject="Login fix"),
                          workspace.SentMessage(id="OUT-2", to="sam@example.com", subject="Checklist")]


def test_sharing_a_document_twice_records_one_share_and_another_role_records_another():
    state = workspace.Workspace()
    viewer, again, editor = calls(shared(state, "add_document_access"), [
        ("add_document_access", {"document_id": "DOC-303", "email": "sam@example.com"}),
        ("add_document_access", {"document_id": "DOC-303", "email": "sam@example.com"}),
        ("add_document_access", {"document_id": "DOC-303", "email": "sam@example.com", "role": "editor"}),
    ])
    assert viewer["structuredContent"] == again["structuredContent"] == {
        "document_id": "DOC-303", "email": "sam@example.com", "role": "viewer"}
    assert editor["structuredContent"]["role"] == "editor"
    assert state.shares == [workspace.Share(document_id="DOC-303", email="sam@example.com", role="viewer"),
                            workspace.Share(document_id="DOC-303", email="sam@example.com", role="editor")]


def test_servers_registered_on_one_state_see_each_others_changes():
    state = workspace.Workspace()
    comment = calls(shared(state, "add_ticket_comment"),
                    [("add_ticket_comment", {"ticket_id": "TCK-403", "comment": "Seen on 40k rows."})])[0]
    read = calls(shared(state, "get_ticket"), [("get_ticket", {"ticket_id": "TCK-403"})])[0]
    assert comment["structuredContent"] == read["structuredContent"] == {
        "id": "TCK-403", "title": "Export to CSV times out", "status": "open", "comments": ["Seen on 40k rows."]}


def many_login_tickets() -> workspace.Workspace:
    """Seven open login tickets (more than the default limit of 5), and one closed one."""
    tickets = {f"TCK-{n}": workspace.Ticket(id=f"TCK-{n}", title=f"Login problem {n}", status="open", comments=[])
               for n in range(501, 508)}
    tickets["TCK-508"] = workspace.Ticket(id="TCK-508", title="Login problem 508", status="closed", comments=[])
    return workspace.Workspace(tickets=tickets)


def test_search_tickets_backend_defaults_to_open_tickets_and_five_results():
    found = workspace.search_tickets(many_login_tickets(), "login")
    assert found.status == "open"
    assert [t.id for t in found.tickets] == ["TCK-501", "TCK-502", "TCK-503", "TCK-504", "TCK-505"]
    assert [t.id for t in workspace.search_tickets(workspace.Workspace(), "login").tickets] == ["TCK-401"]
    assert [t.id for t in workspace.search_tickets(many_login_tickets(), "login", "closed", 1).tickets] == ["TCK-508"]


def test_search_tickets_tool_passes_its_limit_on():
    default, two, twenty = calls(shared(many_login_tickets(), "search_tickets"), [
        ("search_tickets", {"query": "login"}),
        ("search_tickets", {"query": "login", "limit": 2}),
        ("search_tickets", {"query": "login", "limit": 20}),
    ])
    assert [t["id"] for t in default["structuredContent"]["tickets"]] == ["TCK-501", "TCK-502", "TCK-503",
                                                                          "TCK-504", "TCK-505"]
    assert [t["id"] for t in two["structuredContent"]["tickets"]] == ["TCK-501", "TCK-502"]
    assert [t["id"] for t in twenty["structuredContent"]["tickets"]] == [f"TCK-{n}" for n in range(501, 508)]


# --- what a model reads when an id is wrong, and what a lesson reads when a name is wrong ---------


@pytest.mark.parametrize("name, arguments, message", [
    ("cancel_event", {"event_id": "EV-999"}, "No event EV-999. Call list_events for the date to find the right id."),
    ("read_message", {"message_id": "MSG-9"}, "No message MSG-9. Call search_messages to find the right id."),
    ("read_document", {"document_id": "DOC-1"}, "No document DOC-1. Call search_documents to find the right id."),
    ("add_document_access", {"document_id": "DOC-9", "email": "a@b.co"},
     "No document DOC-9. Call search_documents to find the right id."),
    ("get_ticket", {"ticket_id": "TCK-999"}, "No ticket TCK-999. Call search_tickets to find the right id."),
    ("add_ticket_comment", {"ticket_id": "TCK-999", "comment": "x"},
     "No ticket TCK-999. Call search_tickets to find the right id."),
    ("list_events", {"date": "2026-02-30"}, "'2026-02-30' is not a real date. Use YYYY-MM-DD, e.g. '2026-10-02'."),
    ("create_event", {"title": "x", "date": "2026-13-01", "start": "10:00"},
     "'2026-13-01' is not a real date. Use YYYY-MM-DD, e.g. '2026-10-02'."),
])
def test_an_unknown_id_names_it_and_the_tool_that_finds_the_right_one(name, arguments, message):
    result = calls(workspace.build_server(), [(name, arguments)])[0]
    assert result["isError"] is True
    assert text(result) == f"Error executing tool {name}: {message}"


def test_a_refused_change_changes_nothing():
    state = workspace.Workspace()
    refused = calls(shared(state, "create_event"), [
        ("create_event", {"title": "x", "date": "2026-02-30", "start": "10:00"})])[0]
    assert refused["isError"] is True
    assert (state.next_event, len(state.events)) == (104, 3)


def test_unknown_names_are_refused_with_the_known_ones_listed():
    with pytest.raises(workspace.UnknownTool) as raised:
        workspace.register(base.new_server("x"), ["get_ticket", "close_ticket"])
    assert str(raised.value) == (
        "unknown workspace tool 'close_ticket'; known: list_events, create_event, cancel_event, search_messages, "
        "read_message, send_message, search_documents, read_document, add_document_access, get_ticket, "
        "search_tickets, add_ticket_comment")
    with pytest.raises(workspace.UnknownTool) as raised:
        workspace.build_server(["mail", "wiki", "billing"])
    assert str(raised.value) == "unknown area(s) billing, wiki; known: calendar, mail, documents, tickets"


def test_server_names_say_which_areas_they_hold():
    assert server_info(workspace.build_server()).name == "workspace"
    assert server_info(workspace.build_server(["documents", "mail", "tickets", "calendar"])).name == "workspace"
    assert server_info(workspace.build_server(["mail"])).name == "workspace-mail"
    assert server_info(workspace.build_server(["tickets", "mail", "documents"])).name == (
        "workspace-mail-documents-tickets")
