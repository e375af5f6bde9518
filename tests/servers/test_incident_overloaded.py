"""Lesson 05's anti-pattern, the one `incident(action=...)` tool: what each action does, and the refusals a model
reads when it leaves out or misuses the parameters whose meaning depends on `action`.

The tool returns a bare dict, so its answers are JSON text only (no structuredContent); the tests parse that text.
"""

from __future__ import annotations

import json

import pytest

from conftest import text, server_info
from course_lib import incident_model, wire
from course_lib.servers import incident_overloaded, incidents

SERVICES = "checkout, payments, search, auth, inventory"


def session(server, planned: list[dict]) -> list[dict]:
    """Several `incident` calls on one server, in one client session; each result in wire form."""

    async def run() -> list[dict]:
        async with wire.connect(server) as client:
            return [wire.dump(await client.call_tool("incident", arguments)) for arguments in planned]

    return wire.run_sync(run)


def answer(result: dict) -> dict:
    assert result["isError"] is False, text(result)
    assert "structuredContent" not in result
    return json.loads(text(result))


def test_the_server_is_the_incident_desk_a_host_trusts_by_name():
    """Lesson 05's careful host trusts {"incidents", "incident-desk"}: the name a host sees in serverInfo."""

    assert server_info(incident_overloaded.build_server()).name == "incident-desk"


@pytest.mark.parametrize("arguments, refusal", [
    ({"action": "read"}, "action 'read' needs id, an incident ID such as INC-101."),
    ({"action": "read", "id": "   "}, "action 'read' needs id, an incident ID such as INC-101."),
    ({"action": "close", "id": ""}, "action 'close' needs id, an incident ID such as INC-101."),
    ({"action": "update", "text": "New title"}, "action 'update' needs id, an incident ID such as INC-101."),
    ({"action": "read", "id": "inc-101"}, "action 'read' needs id to be an incident ID such as INC-101."),
    ({"action": "close", "id": "INC-101 "}, "action 'close' needs id to be an incident ID such as INC-101."),
    ({"action": "update", "id": "checkout", "text": "New title"},
     "action 'update' needs id to be an incident ID such as INC-101."),
    ({"action": "update", "id": "INC-101"}, "action 'update' needs text, the new title."),
    ({"action": "update", "id": "INC-101", "text": " "}, "action 'update' needs text, the new title."),
    ({"action": "page", "text": "help"}, "action 'page' needs id, a service name."),
    ({"action": "page", "id": "billing", "text": "help"}, f"action 'page' needs id to be a service: {SERVICES}."),
    ({"action": "page", "id": "INC-101", "text": "help"}, f"action 'page' needs id to be a service: {SERVICES}."),
    ({"action": "page", "id": "checkout"}, "action 'page' needs text, the page message."),
    ({"action": "notify"}, "action 'notify' needs text, the post for the public status page."),
    ({"action": "search", "text": "x" * 501}, "text is too long: use at most 500 characters."),
    ({"action": "notify", "text": "x" * 501}, "text is too long: use at most 500 characters."),
])
def test_a_misused_parameter_is_refused_saying_what_the_action_needs_and_nothing_changes(arguments, refusal):
    store = incidents.Store()
    (result,) = session(incident_overloaded.build_server("ana", store), [arguments])
    assert result["isError"] is True
    assert text(result) == f"Error executing tool incident: {refusal}"
    assert store.lookup("INC-101") == incident_model.seed()["INC-101"] and store.pages("acme") == []


def test_search_lists_resolved_incidents_too_newest_first():
    search, query = session(incident_overloaded.build_server("ana"), [
        {"action": "search"}, {"action": "search", "text": "CARD payments"}])
    assert [i["incidentId"] for i in answer(search)["incidents"]] == ["INC-204", "INC-103", "INC-102", "INC-101"]
    assert answer(query) == {"incidents": [{"incidentId": "INC-102", "title": "Card payments failing for one bank",
                                            "service": "payments", "severity": "sev1", "status": "resolved"}]}


def test_read_returns_the_incident_and_a_forbidden_one_reads_as_missing():
    read, forbidden = session(incident_overloaded.build_server("gil"), [
        {"action": "read", "id": "INC-301"}, {"action": "read", "id": "INC-101"}])
    assert answer(read) == {"incidentId": "INC-301", "title": "Checkout returns HTTP 500", "service": "checkout",
                            "severity": "sev2", "status": "open",
                            "notes": [{"noteId": "N1", "author": "gil", "text": "Rolled back the inventory client."}]}
    assert text(forbidden) == ("Error executing tool incident: Incident INC-101 was not found, or you do not have "
                               "access to it. Use search_incidents to find the IDs you can see.")


def test_update_overwrites_the_title_and_close_resolves_at_once():
    store = incidents.Store()
    updated, closed = session(incident_overloaded.build_server("ben", store), [
        {"action": "update", "id": "INC-103", "text": "Search index two days old"},
        {"action": "close", "id": "INC-103", "text": "ignored"}])
    assert answer(updated) == {"incidentId": "INC-103", "title": "Search index two days old", "service": "search",
                               "severity": "sev3", "status": "open", "notes": []}
    assert answer(closed) == {**answer(updated), "status": "resolved"}, "no preview, no note: closed at once"
    assert store.lookup("INC-103").title == "Search index two days old"


def test_page_reaches_the_on_call_person_of_the_callers_organization():
    store = incidents.Store()
    acme, globex = session(incident_overloaded.build_server("ben", store), [
        {"action": "page", "id": "auth", "text": "Logins failing."}]), session(
        incident_overloaded.build_server("gil", store), [{"action": "page", "id": "auth", "text": "Logins failing."}])
    assert answer(acme[0]) == {"pageId": "PG-1", "service": "auth", "oncall": "ana", "message": "Logins failing."}
    assert answer(globex[0]) == {"pageId": "PG-1", "service": "auth", "oncall": "gil", "message": "Logins failing."}


def test_notify_posts_publicly_every_time():
    first, second = session(incident_overloaded.build_server("ana"), [
        {"action": "notify", "text": "Checkout is slow."}, {"action": "notify", "text": "Checkout is back."}])
    assert answer(first) == {"posted": "Checkout is slow.", "public": True}
    assert answer(second) == {"posted": "Checkout is back.", "public": True}


def test_text_of_exactly_500_characters_is_accepted():
    (posted,) = session(incident_overloaded.build_server("ana"), [{"action": "notify", "text": "x" * 500}])
    assert answer(posted) == {"posted": "x" * 500, "public": True}


def test_an_unknown_user_is_a_setup_error():
    from course_lib.errors import UnknownName

    with pytest.raises(UnknownName, match=r"^unknown user 'eve'; users: ana, ben, gil$"):
        incident_overloaded.build_server("eve")
