"""checks.prose reads a sentence by its role: pointing *to* another tool is not the same as naming it."""

from __future__ import annotations

import pytest

from course_lib import review
from course_lib.checks import prose

POINTS = ["Do not use it to read one ticket whose id you know; call get_ticket.",
          "Avoid it for a ticket whose id you have: get_ticket reads it.",
          "Do not use it for a known id, call get_ticket instead.",
          "Do not use it when you know the id, since get_ticket reads one ticket.",
          "For a known ticket id, use get_ticket rather than this tool.",
          "Don't use this for a single known ticket (use get_ticket).",
          # the pointer first, then a limit that refers back to it (unseen round 8)
          "For a single ticket with a known id, get_ticket reads it; this tool is not for that.",
          "For a single ticket with a known id, get_ticket reads it; do not use this tool for that.",
          "get_ticket reads a ticket whose id you know; this tool does not.",
          "Call get_ticket for one ticket whose id you know, not this tool."]
TURNS_AWAY = ["Do not use it to read one ticket by id; do not bother calling get_ticket either.",
              "Not for one ticket: get_ticket is not needed.",
              "Instead of get_ticket, never use this for one id.",
              "Do not use it for one ticket by id. Use get_ticket.",  # two sentences: the limit names nothing
              "Use it to find tickets; get_ticket reads one.",  # points, but limits nothing
              "For a known id, get_ticket reads it; do not use this tool incorrectly.",  # a limit of nothing
              "For a known id, get_ticket reads it; this tool is for that.",  # refers back, limits nothing
              "For a known id, do not call get_ticket; this tool is not for that.",  # limits, turns it away
              "Call get_ticket; do not use it for that."]  # "that" refers to nothing but the tool's name


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


WHENS = ["Use it when you do not yet know an incident's ID, or to browse what is open",
         "Use it to find tickets that are not closed", "Use it when the request doesn't name an ID",
         "Use it when you cannot recall the id", "There is no time question you should not use it for"]
NOT_WHENS = ["Do not use it when you know the ID", "Never call it when the user asks for a list",
             "It is not meant for when the user asks the time", "It does not answer questions about the past",
             "Use it never", "Do not use it for a known id, call get_ticket instead",
             "To read one ticket whose id you know, call get_ticket instead",
             "To read one ticket that you know, call get_ticket instead"]  # unseen round 5: no use verb first


@pytest.mark.parametrize("clause", WHENS)
def test_for_the_checkers_a_negation_inside_the_condition_is_part_of_the_when(clause):
    assert review.invites_use(clause, negation_in_condition=True)


@pytest.mark.parametrize("clause", NOT_WHENS)
def test_a_negation_before_the_condition_turns_the_use_away(clause):
    assert not review.invites_use(clause, negation_in_condition=True)
    assert not review.invites_use(clause)  # review's own reading: any negation


def test_review_keeps_its_plain_reading_without_the_flag():
    """`course review` was measured against its corpus verdicts with every negation turning a when away."""
    assert not review.invites_use(WHENS[0])


@pytest.mark.parametrize("description, when, when_not", [
    ("Find incidents by title words. Use it when you cannot recall an incident's ID.", True, False),
    ("Find incidents by title words. Use it when you do not know an incident's ID.", True, False),
    ("Find incidents by title words. Use it only when you have no ID.", True, True),  # "only": a when and a limit
    ("Find incidents by title words. Use it when you cannot recall an ID, not for reading one incident.", True, True),
    ("Find incidents by title words. It cannot read one incident.", False, True)])
def test_for_the_checkers_a_negation_inside_a_whens_condition_is_no_when_not(description, when, when_not):
    assert review.says_when(description, negation_in_condition=True) is when
    assert review.says_when_not(description, negation_in_condition=True) is when_not
