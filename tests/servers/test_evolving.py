"""Lesson 09's helpdesk versions: the transition v2 keeps every v1 client working; each proposal is one real change."""

from __future__ import annotations

import pytest

from conftest import definitions
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
