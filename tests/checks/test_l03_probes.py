"""Lesson 03's checkers: no answer key to import, and the backend rows they add while probing never outlive a check."""

from __future__ import annotations

import pytest

from course_lib import checks
from course_lib.checks import l03
from course_lib.errors import CheckFailed
from course_lib.servers import orders


def test_no_answer_key_is_importable():
    assert not hasattr(l03, "FAILURES")
    assert not any(isinstance(value, dict) and {"a", "h"} <= set(value) for value in vars(l03).values())


def test_extra_rows_and_the_second_outage_are_gone_after_a_failed_check():
    rows, archived = dict(orders._ORDERS), orders.ARCHIVED

    def build():
        from mcp.server import MCPServer

        server = MCPServer("desk", log_level="WARNING")

        @server.tool()
        def get_order(order_number: str) -> str:
            """Anything."""
            return order_number

        return server

    for check in (checks.ex_03_1, checks.ex_03_2):
        with pytest.raises(CheckFailed):
            check(build)
    assert orders._ORDERS == rows and orders.ARCHIVED == archived
    assert "ORD-1071" not in orders.OrderStore()._rows


@pytest.mark.parametrize("text, invites", [
    ("Try again in a minute.", True), ("Retry later; if it keeps failing, do not retry again.", True),
    ("Wait a minute, then call get_order again.", True), ("Do not retry.", False), ("Don't try again.", False),
    ("The archive is offline.", False),
])
def test_a_retry_invitation_is_read_by_clause_and_a_negated_one_does_not_count(text, invites):
    assert l03._invites_retry(text) is invites


def test_exercise_3_3_grades_exactly_the_failures_its_text_lists():
    import re

    import nbformat

    from conftest import ROOT

    notebook = nbformat.read(ROOT / "solutions" / "03_two_kinds_of_failure.ipynb", as_version=4)
    text = "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "markdown")
    listed = [letter for letter, _ in re.findall(r"^\* \((\w)\) (.+)$", text, re.M)]
    assert listed == list("abcdefgh")
    right = {"a": "protocol", "b": "protocol", "c": "protocol", "d": "execution", "e": "execution",
             "f": "execution", "g": "protocol", "h": "execution"}
    checks.ex_03_3(lambda: right)
    for letter in listed:
        with pytest.raises(CheckFailed, match=rf"no key {letter!r}"):
            checks.ex_03_3(lambda: {k: v for k, v in right.items() if k != letter})


def test_3_4_names_only_the_dry_runs_that_show_something_else_in_a_sentence():
    """unseen11, M5: an order that shows what it should is left out; each other one reads as a sentence part."""
    packed = {"structuredContent": {"order_number": "ORD-1043", "dry_run": True, "status": "packed"}}
    cancelled = {"structuredContent": {"order_number": "ORD-1045", "dry_run": True, "status": "cancelled"}}
    failed = {"isError": True, "content": [{"type": "text", "text": "No such order."}]}
    assert l03._dry_runs_differ(("ORD-1043", "packed", packed), ("ORD-1045", "received", cancelled)) == \
        "a dry run of ORD-1045 shows it cancelled"
    assert l03._dry_runs_differ(("ORD-1043", "packed", failed), ("ORD-1045", "received", cancelled)) == \
        "a dry run of ORD-1043 gave a tool error: 'No such order.'; a dry run of ORD-1045 shows it cancelled"


def test_3_3_names_every_wrong_letter_in_one_run_one_line_per_rule():
    """walk6 M1: (d), (g) and (h) wrong, across both rules, are all named in one run, not one letter per run."""
    right = {"a": "protocol", "b": "protocol", "c": "protocol", "d": "execution", "e": "execution",
             "f": "execution", "g": "protocol", "h": "execution"}
    with pytest.raises(CheckFailed) as failure:
        checks.ex_03_3(lambda: dict(right, d="protocol", g="execution", h="protocol"))
    said = [(rule.rule, rule.found) for rule in failure.value.failures]
    assert said == [("execution", "'protocol' for (d), 'protocol' for (h)"), ("protocol", "'execution'")], said
    message = str(failure.value)
    assert "2 things to fix" in message and all(f"({letter})" in message for letter in "dgh"), message
    assert not any(f"({letter})" in message for letter in "abcef"), message
