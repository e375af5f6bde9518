"""Hints come one level at a time and never run past the last one."""

from __future__ import annotations

import re

import pytest

from course_lib import hints
from course_lib.errors import UnknownName


def test_each_call_reveals_the_next_level_then_stays_on_the_last(capsys, monkeypatch):
    monkeypatch.setattr(hints, "_revealed", {})
    levels = len(hints.levels("1.3"))
    for _ in range(levels + 1):
        hints.show("1.3")
    out = capsys.readouterr().out.strip()
    shown = [" ".join(block.split()) for block in re.split(r"\n(?=Hint )", out)]
    assert all(len(line) <= 100 for line in out.splitlines())
    assert [line.split(" for ")[0] for line in shown] == [f"Hint {n} of {levels}" for n in range(1, levels + 1)] + [
        f"Hint {levels} of {levels}"]
    assert "again for the next hint" in shown[0] and "again for the next hint" not in shown[-1]


def test_a_level_can_be_asked_for_directly(capsys, monkeypatch):
    monkeypatch.setattr(hints, "_revealed", {})
    hints.show("1.2", level=3)
    assert capsys.readouterr().out.startswith("Hint 3 of 3 for exercise 1.2: ")


@pytest.mark.parametrize("exercise_id, says", [("1.9", "there is no exercise 1.9"), ("x", "not an exercise id"),
                                                ("42.1", "there is no lesson 42")])
def test_unknown_ids_are_clear_errors(exercise_id, says):
    with pytest.raises(UnknownName, match=says):
        hints.show(exercise_id)
