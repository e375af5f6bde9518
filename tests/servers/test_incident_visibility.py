"""Authorization as a property: what every incident tool returns, for every user, incident and query, matches a
visibility table written here (never `Store.can_read` or `Store.visible`, the code under test)."""

from __future__ import annotations

import json
import uuid

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import text
from course_lib import wire
from course_lib.servers import incident_overloaded, incidents

# The seed data as this test knows it: id -> (title, service, status)
INCIDENTS = {
    "INC-101": ("Checkout latency above 2 s", "checkout", "open"),
    "INC-102": ("Card payments failing for one bank", "payments", "resolved"),
    "INC-103": ("Search results are stale", "search", "open"),
    "INC-204": ("API credential leaked in a public repository", "auth", "open"),
    "INC-301": ("Checkout returns HTTP 500", "checkout", "open"),
    "INC-302": ("Inventory sync delayed", "inventory", "resolved"),
}
# Who may see what: Acme's incidents for Ana and Ben, INC-204 only for the security team (Ana), Globex's for Gil.
VISIBLE = {
    "ana": {"INC-101", "INC-102", "INC-103", "INC-204"},
    "ben": {"INC-101", "INC-102", "INC-103"},
    "gil": {"INC-301", "INC-302"},
}
WORDS = sorted({word for title, service, _ in INCIDENTS.values() for word in f"{title} {service}".lower().split()})
QUERIES = st.lists(st.sampled_from(WORDS + ["latency", "zebra", "CHECKOUT", "500"]), max_size=3).map(" ".join)


def expected_search(user: str, query: str, include_resolved: bool, limit: int) -> list[str]:
    words = query.casefold().split()
    found = [incident for incident in sorted(VISIBLE[user], key=lambda i: int(i[4:]), reverse=True)
             if (include_resolved or INCIDENTS[incident][2] == "open")
             and all(word in f"{INCIDENTS[incident][0]} {INCIDENTS[incident][1]}".casefold() for word in words)]
    return found[:limit]


def calls(server, planned: list[tuple[str, dict]]) -> list[dict]:
    async def run() -> list[dict]:
        async with wire.connect(server) as client:
            return [wire.dump(await client.call_tool(name, arguments)) for name, arguments in planned]

    return wire.run_sync(run)


@settings(derandomize=True, database=None, max_examples=60, deadline=None)
@given(user=st.sampled_from(sorted(VISIBLE)), query=QUERIES, include_resolved=st.booleans(),
       limit=st.integers(1, 20))
def test_search_returns_exactly_the_visible_matches(user, query, include_resolved, limit):
    (result,) = calls(incidents.build_server(user), [
        ("search_incidents", {"query": query, "includeResolved": include_resolved, "limit": limit})])
    got = [row["incidentId"] for row in result["structuredContent"]["incidents"]]
    assert got == expected_search(user, query, include_resolved, limit), (user, query)


@settings(derandomize=True, database=None, max_examples=30, deadline=None)
@given(user=st.sampled_from(sorted(VISIBLE)), query=QUERIES)
def test_the_overloaded_search_never_shows_an_invisible_incident(user, query):
    (result,) = calls(incident_overloaded.build_server(user), [("incident", {"action": "search", "text": query})])
    got = [row["incidentId"] for row in json.loads(text(result))["incidents"]]  # a bare dict: text only
    assert got == expected_search(user, query, True, 20), (user, query)


def test_every_incident_tool_answers_a_forbidden_id_exactly_as_a_missing_one():
    for user, visible in VISIBLE.items():
        server = incidents.build_server(user)
        for incident in [*INCIDENTS, "INC-999"]:
            request = str(uuid.UUID(int=int(incident[4:])))
            planned = [("get_incident", {"incidentId": incident}),
                       ("preview_close_incident", {"incidentId": incident, "resolution": "fixed"}),
                       ("add_incident_note", {"incidentId": incident, "note": "Checked.", "requestId": request}),
                       ("close_incident", {"incidentId": incident, "resolution": "fixed", "previewToken": "pv-0"})]
            results = calls(server, planned)
            title = INCIDENTS.get(incident, ("<none>",))[0]
            if incident in visible:
                assert results[0]["structuredContent"]["title"] == title
                assert results[2]["isError"] is False
            else:
                missing = calls(incidents.build_server(user), [(name, {**args, "incidentId": "INC-999"})
                                                               for name, args in planned])
                for got, want in zip(results, missing):
                    assert got["isError"] is True and "structuredContent" not in got
                    assert text(got).replace(incident, "INC-999") == text(want), (user, incident)
                    assert title not in text(got)


def test_get_incident_returns_the_five_most_recent_notes_oldest_first():
    store = incidents.Store()
    server = incidents.build_server("ana", store)
    notes = [f"Step {number}: checked the checkout pods." for number in range(1, 8)]
    added = calls(server, [("add_incident_note", {"incidentId": "INC-101", "note": note,
                                                  "requestId": str(uuid.UUID(int=100 + i))})
                           for i, note in enumerate(notes)])
    assert all(result["isError"] is False for result in added)
    (read,) = calls(server, [("get_incident", {"incidentId": "INC-101"})])
    seed = "Latency rose after the 14:05 deploy of checkout 2.8.0."
    every = [seed, *notes]
    assert [note["text"] for note in read["structuredContent"]["notes"]] == every[-5:]
