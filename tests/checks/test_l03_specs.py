"""Lesson 03: every rule of each exercise's spec is stated, word for word, in that exercise's text."""

from __future__ import annotations

import re

import nbformat
import pytest

from conftest import ROOT
from course_lib.checks import core, l03  # noqa: F401  (registers the lesson's specs)
from course_lib.workbook.ids import ExerciseId

NOTEBOOK = next((ROOT / "solutions").glob("03_*.ipynb"))


def exercise_text(exercise: str) -> str:
    """The markdown of one exercise: from its '## Exercise N.M' heading to the next exercise heading."""
    cells = nbformat.read(NOTEBOOK, as_version=4).cells
    text, inside = [], False
    for cell in cells:
        if cell.cell_type != "markdown":
            continue
        if cell.source.startswith("## Exercise "):
            inside = cell.source.startswith(f"## Exercise {exercise} ")
        if inside:
            text.append(cell.source)
    return re.sub(r"\s+", " ", "\n".join(text))


@pytest.mark.parametrize("exercise", sorted(str(e) for e in core.SPECS if e.lesson == 3))
def test_every_rule_is_stated_in_the_exercise_text(exercise):
    text = exercise_text(exercise)
    assert text, f"no markdown for exercise {exercise}"
    for rule in core.SPECS[ExerciseId.parse(exercise)].values():
        assert re.sub(r"\s+", " ", rule.states) in text, f"{exercise} does not state rule {rule.name!r}"
