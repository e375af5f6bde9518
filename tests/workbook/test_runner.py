"""`runner.check`: each exercise's outcome comes back as data recorded where the check ran, never parsed from text."""

from __future__ import annotations

import nbformat

from conftest import ROOT
from course_lib.workbook import outcomes, runner


def _variant(tmp_path, edit) -> "object":
    notebook = nbformat.read(ROOT / "solutions" / "00_start_here.ipynb", as_version=4)
    check = next(cell for cell in notebook.cells if "check" in cell.metadata.get("tags", []))
    edit(notebook, check)
    path = tmp_path / "00_start_here.ipynb"
    nbformat.write(notebook, path)
    return path


def test_a_solved_notebook_reports_the_checks_own_pass_line(tmp_path):
    (outcome,) = runner.check(_variant(tmp_path, lambda nb, check: None))
    assert (outcome.exercise, outcome.status) == ("0.1", "passed")
    assert outcome.message.startswith("bounds() reads minimum and maximum")


def test_an_unsolved_notebook_reports_not_done_with_the_hint(tmp_path):
    (outcome,) = runner.check(ROOT / "exercises" / "00_start_here.ipynb")
    assert (outcome.exercise, outcome.status, outcome.hint) == ("0.1", "not done", 'hints.show("0.1")')
    assert "is not done yet" in outcome.message


def test_a_wrong_answer_reports_the_failed_rule(tmp_path):
    def wrong(notebook, check):
        cell = next(c for c in notebook.cells if c.metadata.get("exercise"))
        cell.source = "def bounds(definition, parameter):\n    return (None, None)\n"

    (outcome,) = runner.check(_variant(tmp_path, wrong))
    assert outcome.status == "failed" and outcome.rule and outcome.message.startswith("Exercise 0.1: expected ")


def test_a_check_cell_that_stops_early_or_checks_nothing_is_failed_with_the_reason(tmp_path):
    def broken(notebook, check):
        check.source = "checks.ex_00_1(not_defined_anywhere)"

    (outcome,) = runner.check(_variant(tmp_path, broken))
    assert outcome.status == "failed" and "NameError" in outcome.message

    def emptied(notebook, check):
        check.source = "# CHECK: do not edit\nNone if True else checks.ex_00_1(bounds)"

    (outcome,) = runner.check(_variant(tmp_path, emptied))
    assert (outcome.status, outcome.message) == ("failed", "the check cell ran no check (was it edited?)")


def test_outcomes_are_written_only_when_a_runner_asks_and_read_back_in_order(tmp_path, monkeypatch):
    monkeypatch.delenv(outcomes.ENV, raising=False)
    outcomes.record(outcomes.Outcome("1.1", "passed", "ok"))  # nobody asked: nothing written, no error
    path = tmp_path / "outcomes.jsonl"
    monkeypatch.setenv(outcomes.ENV, str(path))
    outcomes.record(outcomes.Outcome("1.1", "failed", "no", "hints.show(\"1.1\")", "when"))
    outcomes.record(outcomes.Outcome("1.2", "passed", "yes"))
    assert [(o.exercise, o.status, o.rule) for o in outcomes.read(path)] == [("1.1", "failed", "when"),
                                                                              ("1.2", "passed", "")]
