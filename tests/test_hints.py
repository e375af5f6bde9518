"""Hints come one level at a time and never run past the last one."""

from __future__ import annotations

import re

import pytest

from course_lib import hints
from course_lib.errors import UnknownName


def test_each_call_reveals_the_next_level_then_says_there_are_no_more(capsys, monkeypatch):
    monkeypatch.setattr(hints, "_revealed", {})
    levels = len(hints.levels("1.3"))
    for _ in range(levels + 2):
        hints.show("1.3")
    out = capsys.readouterr().out.strip()
    shown = [" ".join(block.split()) for block in re.split(r"\n(?=Hint |No more)", out)]
    assert all(len(line) <= 100 for line in out.splitlines())
    assert [line.split(" for ")[0] for line in shown[:levels]] == (
        ["Hint 1 of 3 (the idea)", "Hint 2 of 3 (the API)", "Hint 3 of 3 (the last hint)"])
    assert shown[0].endswith('Run hints.show("1.3") again for hint 2 of 3 (the API).')
    assert shown[levels - 1].endswith("That was the last hint for this exercise.")
    assert shown[levels:] == [f"No more hints for exercise 1.3: hint {levels} of {levels} was the last. Read the "
                              "check's message again (what it expected, what it found), compare it with your code, "
                              "or ask your instructor."] * 2


def test_every_exercise_climbs_from_idea_to_api_to_a_last_hint_that_says_so():
    from course_lib import checks
    from course_lib.workbook import manifest

    for exercise in manifest.exercise_ids():
        total = len(hints.levels(exercise))
        assert total >= 2, exercise
        kinds = [hints.render(exercise, level).split(")")[0].split("(")[1] for level in range(1, total + 1)]
        assert kinds[0] == "the idea" and kinds[-1] == "the last hint" and (total < 3 or kinds[1] == "the API")
        first = hints.levels(exercise)[0]
        for rule in getattr(checks.registered(exercise), "rules", ()):  # never the failure message again
            assert rule.states not in first, (exercise, rule.name)


def test_a_level_can_be_asked_for_directly(capsys, monkeypatch):
    monkeypatch.setattr(hints, "_revealed", {})
    hints.show("1.2", level=3)
    assert capsys.readouterr().out.startswith("Hint 3 of 3 (the last hint) for exercise 1.2: ")


@pytest.mark.parametrize("exercise_id, says", [("1.9", "there is no exercise 1.9"), ("x", "not an exercise id"),
                                                ("42.1", "there is no lesson 42")])
def test_unknown_ids_are_clear_errors(exercise_id, says):
    with pytest.raises(UnknownName, match=says):
        hints.show(exercise_id)
