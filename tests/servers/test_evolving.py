"""Lesson 09's helpdesk versions: the transition v2 keeps every v1 client working; each proposal is one real change."""

from __future__ import annotations

import copy

import pytest

from conftest import definitions, server_info
from course_lib import contract, wire
from course_lib.servers import evolving


def listing(build) -> list[dict]:
    return list(definitions(build()).values())


def test_the_transition_adds_fetch_ticket_and_deprecates_get_ticket_without_breaking_anything():
    v1, v2 = listing(evolving.build_v1), listing(evolving.build_v2_transition)
    changes = contract.diff(v1, v2)
    assert [(c.tool, c.what, c.breaking) for c in changes] == [
        ("fetch_ticket", "new tool", False), ("get_ticket", "description changed", False)]
    described = {tool["name"]: tool["description"] for tool in v2}
    assert described["get_ticket"].startswith("Deprecated: use fetch_ticket")
    assert described["fetch_ticket"] == evolving.GET
    outcomes = wire.run_sync(contract.replay, evolving.V1_CALLS, evolving.build_v2_transition(), v1)
    assert all(outcome.ok for outcome in outcomes), [o.how for o in outcomes if not o.ok]


def test_fetch_and_get_read_the_same_ticket_and_builds_do_not_share_tickets():
    from conftest import call

    server = evolving.build_v2_transition()
    created = call(server, "create_ticket", {"title": "Mouse is dead", "priority": "low"})["structuredContent"]
    assert call(server, "fetch_ticket", {"ticket_id": created["id"]})["structuredContent"] == created
    assert call(server, "get_ticket", {"ticket_id": created["id"]})["structuredContent"] == created
    assert call(evolving.build_v2_transition(), "get_ticket", {"ticket_id": created["id"]})["isError"]


@pytest.mark.parametrize("proposal", evolving.PROPOSALS, ids=lambda p: p.letter)
def test_each_proposal_is_a_change_the_diff_sees_and_leaves_its_input_alone(proposal):
    v1 = listing(evolving.build_v1)
    before = [dict(tool) for tool in v1]
    changed = evolving.proposed(v1, proposal)
    assert contract.diff(v1, changed) and v1 == before


def test_the_proposals_mix_breaking_and_safe_changes_of_every_kind():
    v1 = listing(evolving.build_v1)
    verdicts = {p.letter: any(c.breaking for c in contract.diff(v1, evolving.proposed(v1, p)))
                for p in evolving.PROPOSALS}
    assert sorted(verdicts) == list("ABCDEFGHIJ") and 3 <= sum(verdicts.values()) <= 7


def test_seed_tickets_are_fresh_each_time():
    first = evolving.seed_tickets()
    first["T-1"] = first["T-1"].model_copy(update={"status": "closed"})
    assert evolving.seed_tickets()["T-1"].status == "open"


# --- what each version answers, call by call --------------------------------------------------------------

T1 = {"id": "T-1", "title": "Printer on floor 2 jams", "priority": "normal", "status": "open"}
T2 = {"id": "T-2", "title": "VPN drops every hour", "priority": "high", "status": "open"}
NOT_FOUND = "Error executing tool {tool}: No ticket T-9. Use search_tickets to find the id."


def test_the_seed_is_the_same_two_open_tickets():
    assert {key: ticket.model_dump() for key, ticket in evolving.seed_tickets().items()} == {"T-1": T1, "T-2": T2}


@pytest.mark.parametrize("build, getter", [
    (evolving.build_v1, "get_ticket"), (evolving.build_v2_breaking, "fetch_ticket"),
    (evolving.build_v2_safe, "get_ticket"), (evolving.build_v2_transition, "get_ticket"),
    (evolving.build_v2_transition, "fetch_ticket")])
def test_every_version_reads_the_seeded_tickets_and_names_an_unknown_id(build, getter):
    async def session(server):
        async with wire.connect(server) as client:
            return [await client.call_tool(getter, {"ticket_id": ticket_id}) for ticket_id in ("T-1", "T-2", "T-9")]

    first, second, missing = wire.run_sync(session, build())
    assert (first.structured_content, second.structured_content) == (T1, T2)
    assert missing.is_error and missing.content[0].text == NOT_FOUND.format(tool=getter)


def test_every_version_is_a_quiet_server_named_helpdesk():
    from course_lib import __version__

    for build in (evolving.build_v1, evolving.build_v2_breaking, evolving.build_v2_safe, evolving.build_v2_transition):
        server = build()
        info = server_info(server)
        assert (info.name, info.version, server.settings.log_level) == ("helpdesk", __version__, "WARNING")


def test_v1_creates_tickets_under_the_next_id_with_normal_as_the_default_priority():
    async def session(server):
        async with wire.connect(server) as client:
            made = [await client.call_tool("create_ticket", {"title": "Screen flickers", "priority": "urgent"}),
                    await client.call_tool("create_ticket", {"title": "Chair is broken"})]
            return [result.structured_content for result in made] + [
                (await client.call_tool("get_ticket", {"ticket_id": "T-4"})).structured_content]

    assert wire.run_sync(session, evolving.build_v1()) == [
        {"id": "T-3", "title": "Screen flickers", "priority": "urgent", "status": "open"},
        {"id": "T-4", "title": "Chair is broken", "priority": "normal", "status": "open"},
        {"id": "T-4", "title": "Chair is broken", "priority": "normal", "status": "open"}]


async def _ten_printer_tickets(client, **extra) -> None:
    """Ten more printer tickets besides the seeded T-1 (T-3 to T-12 on a fresh server): past T-9, so newest first
    in numbers differs from newest first in text."""
    for number in range(10):
        await client.call_tool("create_ticket", {"title": f"printer {number} out of toner", **extra})


def test_v1_search_matches_any_case_newest_first_ten_by_default_and_counts_them_all():
    async def session(server):
        async with wire.connect(server) as client:
            await _ten_printer_tickets(client)
            return [(await client.call_tool("search_tickets", arguments)).structured_content
                    for arguments in ({"query": "PRINTER"}, {"query": "Printer", "limit": 30},
                                      {"query": "vpn"}, {"query": "scanner"})]

    default, wide, vpn, none = wire.run_sync(session, evolving.build_v1())
    assert [t["id"] for t in default["tickets"]] == [f"T-{n}" for n in range(12, 2, -1)] and default["total"] == 11
    assert [t["id"] for t in wide["tickets"]] == [f"T-{n}" for n in range(12, 2, -1)] + ["T-1"]
    assert wide["total"] == 11 and wide["tickets"][-1] == T1
    assert vpn == {"tickets": [T2], "total": 1}
    assert none == {"tickets": [], "total": 0}


def test_v1_search_refuses_a_limit_above_fifty_and_says_the_bound():
    result = wire.run_sync(wire.call_tool, evolving.build_v1(), "search_tickets", {"query": "printer", "limit": 51})
    assert result.is_error and "limit\n  Input should be less than or equal to 50" in result.content[0].text


def test_close_keeps_the_ticket_closes_it_once_and_a_second_close_changes_nothing():
    closed = {**T2, "status": "closed"}

    async def session(server):
        async with wire.connect(server) as client:
            arguments = {"ticket_id": "T-2", "resolution": "Router replaced."}
            first = await client.call_tool("close_ticket", arguments)
            second = await client.call_tool("close_ticket", arguments)
            read = await client.call_tool("get_ticket", {"ticket_id": "T-2"})
            other = await client.call_tool("get_ticket", {"ticket_id": "T-1"})
            missing = await client.call_tool("close_ticket", {"ticket_id": "T-9", "resolution": "Done."})
            return first, second, read, other, missing

    first, second, read, other, missing = wire.run_sync(session, evolving.build_v1())
    assert first.structured_content == second.structured_content == read.structured_content == closed
    assert other.structured_content == T1
    assert missing.is_error and missing.content[0].text == NOT_FOUND.format(tool="close_ticket")


def test_the_breaking_v2_needs_a_team_refuses_urgent_and_pages_twenty_at_most():
    async def session(server):
        async with wire.connect(server) as client:
            no_team = await client.call_tool("create_ticket", {"title": "Desk wobbles"})
            urgent = await client.call_tool("create_ticket", {"title": "Desk wobbles", "team": "it",
                                                              "priority": "urgent"})
            made = await client.call_tool("create_ticket", {"title": "Desk wobbles", "team": "facilities"})
            await _ten_printer_tickets(client, team="it")  # T-4 to T-13, as T-3 is the desk
            pages = [(await client.call_tool("search_tickets", arguments)).structured_content
                     for arguments in ({"query": "printer"}, {"query": "printer", "limit": 11},
                                       {"query": "printer", "limit": 20})]
            too_many = await client.call_tool("search_tickets", {"query": "printer", "limit": 21})
            return no_team, urgent, made, pages, too_many

    no_team, urgent, made, (ten, eleven, twenty), too_many = wire.run_sync(session, evolving.build_v2_breaking())
    assert no_team.is_error and "team\n  Field required" in no_team.content[0].text
    assert urgent.is_error and "priority\n  Input should be 'low', 'normal' or 'high'" in urgent.content[0].text
    assert made.structured_content == {"id": "T-3", "title": "Desk wobbles", "priority": "normal", "status": "open"}
    assert [t["id"] for t in ten["tickets"]] == [f"T-{n}" for n in range(13, 3, -1)] and ten["has_more"] is True
    assert "total" not in ten
    assert [t["id"] for t in eleven["tickets"]][-2:] == ["T-4", "T-1"] and eleven["has_more"] is False
    assert len(twenty["tickets"]) == 11 and twenty["has_more"] is False
    assert too_many.is_error and "limit\n  Input should be less than or equal to 20" in too_many.content[0].text


def test_the_safe_v2_filters_by_status_and_takes_critical():
    async def session(server):
        async with wire.connect(server) as client:
            await client.call_tool("close_ticket", {"ticket_id": "T-1", "resolution": "Paper path cleared."})
            made = await client.call_tool("create_ticket", {"title": "Printer toner low", "priority": "critical"})
            return made.structured_content, [
                (await client.call_tool("search_tickets", {"query": "printer", **status})).structured_content
                for status in ({}, {"status": "any"}, {"status": "open"}, {"status": "closed"})]

    made, (unfiltered, any_status, open_only, closed_only) = wire.run_sync(session, evolving.build_v2_safe())
    assert made == {"id": "T-3", "title": "Printer toner low", "priority": "critical", "status": "open"}
    both = {"tickets": [made, {**T1, "status": "closed"}], "total": 2}
    assert unfiltered == any_status == both
    assert open_only == {"tickets": [made], "total": 1}
    assert closed_only == {"tickets": [{**T1, "status": "closed"}], "total": 1}


def test_the_safe_v2_counts_comments_per_ticket_and_refuses_them_on_closed_or_unknown_tickets():
    async def session(server):
        async with wire.connect(server) as client:
            counts = [(await client.call_tool("add_comment", {"ticket_id": ticket_id, "body": body})).structured_content
                      for ticket_id, body in (("T-1", "Tray 2 too."), ("T-1", "Still jams."), ("T-2", "Since Monday."))]
            await client.call_tool("close_ticket", {"ticket_id": "T-2", "resolution": "Router replaced."})
            closed = await client.call_tool("add_comment", {"ticket_id": "T-2", "body": "Back again."})
            missing = await client.call_tool("add_comment", {"ticket_id": "T-9", "body": "Hello?"})
            return counts, closed, missing

    counts, closed, missing = wire.run_sync(session, evolving.build_v2_safe())
    assert counts == [{"ticket_id": "T-1", "comments": 1}, {"ticket_id": "T-1", "comments": 2},
                      {"ticket_id": "T-2", "comments": 1}]
    assert closed.is_error
    assert closed.content[0].text == "Error executing tool add_comment: T-2 is closed. Comments go on open tickets only."
    assert missing.is_error and missing.content[0].text == NOT_FOUND.format(tool="add_comment")


# --- the proposals, each exactly the edit it says ----------------------------------------------------------

GONE = "(absent)"


def leaves(tools: list[dict]) -> dict[tuple, object]:
    """Every leaf of the definitions by its path (tool name first); a list counts as one leaf."""
    found: dict[tuple, object] = {}

    def walk(path: tuple, value) -> None:
        if isinstance(value, dict):
            for key, inner in value.items():
                walk((*path, key), inner)
        else:
            found[path] = value

    for tool in tools:
        walk((tool["name"],), tool)
    return found


def edits(before: list[dict], after: list[dict]) -> dict[tuple, tuple]:
    old, new = leaves(before), leaves(after)
    return {path: (old.get(path, GONE), new.get(path, GONE))
            for path in old.keys() | new.keys() if old.get(path, GONE) != new.get(path, GONE)}


SEARCH_IN = ("search_tickets", "inputSchema")
GET_OUT = ("get_ticket", "outputSchema")
EDITS = {
    "A": {(*SEARCH_IN, "properties", "limit", "maximum"): (50, 100)},
    "B": {(*SEARCH_IN, "required"): (["query"], ["query", "limit"])},
    "C": {(*SEARCH_IN, "properties", "sort", "type"): (GONE, "string"),
          (*SEARCH_IN, "properties", "sort", "enum"): (GONE, ["newest", "oldest"]),
          (*SEARCH_IN, "properties", "sort", "default"): (GONE, "newest")},
    "D": {(*GET_OUT, "properties", "status", "enum"): (["open", "closed"], ["open", "pending", "closed"])},
    "E": {(*GET_OUT, "properties", "created_by", "type"): (GONE, "string"),
          (*GET_OUT, "properties", "created_by", "title"): (GONE, "Created By")},
    "F": {(*GET_OUT, "properties", "priority", "type"): ("string", GONE),
          (*GET_OUT, "properties", "priority", "title"): ("Priority", GONE),
          (*GET_OUT, "required"): (["id", "title", "priority", "status"], ["id", "title", "status"])},
    "G": {("create_ticket", "inputSchema", "properties", "title", "maxLength"): (120, 80)},
    "H": {(*SEARCH_IN, "properties", "limit", "default"): (10, 20)},
    "I": {("close_ticket", "description"): (
        "Close a ticket with a resolution note. Use it when the problem is solved. "
        "Do not use it to delete a ticket; closing twice changes nothing.",
        "Mark a ticket as solved, with a note on what fixed it. Use it when the problem is solved. "
        "Do not use it to delete a ticket; closing twice changes nothing.")},
}
VERDICTS = {"A": False, "B": True, "C": False, "D": True, "E": False, "F": True, "G": True, "H": True, "I": False,
            "J": True}
"""Breaking or not, as lesson 09's answer key has it."""


@pytest.mark.parametrize("proposal", [p for p in evolving.PROPOSALS if p.letter != "J"], ids=lambda p: p.letter)
def test_each_proposal_edits_exactly_what_it_says(proposal):
    v1 = listing(evolving.build_v1)
    changed = evolving.proposed(v1, proposal)
    assert [tool["name"] for tool in changed] == ["get_ticket", "create_ticket", "search_tickets", "close_ticket"]
    assert edits(v1, changed) == EDITS[proposal.letter]
    assert any(c.breaking for c in contract.diff(v1, changed)) is VERDICTS[proposal.letter]


def test_proposal_j_renames_close_ticket_and_keeps_the_definitions_keyed_by_name():
    v1 = listing(evolving.build_v1)
    (rename,) = [p for p in evolving.PROPOSALS if p.letter == "J"]
    changed = evolving.proposed(v1, rename)
    assert [tool["name"] for tool in changed] == ["get_ticket", "create_ticket", "search_tickets", "resolve_ticket"]
    (close,) = [tool for tool in v1 if tool["name"] == "close_ticket"]
    assert changed[-1] == {**close, "name": "resolve_ticket"}
    assert any(c.breaking for c in contract.diff(v1, changed)) is VERDICTS["J"]
    by_name = {tool["name"]: copy.deepcopy(tool) for tool in v1}
    rename.edit(by_name)
    assert sorted(by_name) == ["create_ticket", "get_ticket", "resolve_ticket", "search_tickets"]
    assert by_name["resolve_ticket"]["name"] == "resolve_ticket"


def test_proposal_f_also_applies_to_a_result_schema_without_a_required_list():
    v1 = listing(evolving.build_v1)
    for tool in v1:
        if tool["name"] == "get_ticket":
            tool["outputSchema"] = {key: value for key, value in tool["outputSchema"].items() if key != "required"}
    (drop,) = [p for p in evolving.PROPOSALS if p.letter == "F"]
    (got,) = [tool for tool in evolving.proposed(v1, drop) if tool["name"] == "get_ticket"]
    assert got["outputSchema"]["required"] == [] and sorted(got["outputSchema"]["properties"]) == ["id", "status",
                                                                                                   "title"]
