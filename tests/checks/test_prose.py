"""checks.prose reads a sentence by its role: pointing *to* another tool is not the same as naming it."""

from __future__ import annotations

import pytest

from course_lib.checks import prose

POINTS = ["Do not use it to read one ticket whose id you know; call get_ticket.",
          "Avoid it for a ticket whose id you have: get_ticket reads it.",
          "Do not use it for a known id, call get_ticket instead.",
          "Do not use it when you know the id, since get_ticket reads one ticket.",
          "For a known ticket id, use get_ticket rather than this tool.",
          "Don't use this for a single known ticket (use get_ticket)."]
TURNS_AWAY = ["Do not use it to read one ticket by id; do not bother calling get_ticket either.",
              "Not for one ticket: get_ticket is not needed.",
              "Instead of get_ticket, never use this for one id.",
              "Do not use it for one ticket by id. Use get_ticket.",  # two sentences: the limit names nothing
              "Use it to find tickets; get_ticket reads one."]  # points, but limits nothing


@pytest.mark.parametrize("description", POINTS)
def test_a_limit_that_points_to_the_other_tool_counts(description):
    assert prose.limits_and_points_to(description, "get_ticket")


@pytest.mark.parametrize("description", TURNS_AWAY)
def test_a_mention_that_turns_the_tool_away_or_a_pointer_without_a_limit_does_not(description):
    assert not prose.limits_and_points_to(description, "get_ticket")


def test_points_to_reads_each_mention_in_its_own_segment():
    assert prose.points_to("never call get_ticket for a list; get_ticket is for one ticket", "get_ticket")
    assert not prose.points_to("never call get_ticket, call get_ticket_v2", "get_ticket")  # another tool's name
    assert not prose.points_to("skip get_ticket", "get_ticket")
    assert not prose.points_to("list tickets", "get_ticket")
