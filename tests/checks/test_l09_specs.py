"""Lesson 09: every rule of each exercise's spec is stated, word for word, in that exercise's text."""

from __future__ import annotations

import re

import nbformat
import pytest

from conftest import ROOT
from course_lib.checks import core, l09  # noqa: F401  (registers the lesson's specs)
from course_lib.workbook.ids import ExerciseId

NOTEBOOK = next((ROOT / "solutions").glob("09_*.ipynb"))


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


@pytest.mark.parametrize("exercise", sorted(str(e) for e in core.SPECS if e.lesson == 9))
def test_every_rule_is_stated_in_the_exercise_text(exercise):
    text = exercise_text(exercise)
    assert text, f"no markdown for exercise {exercise}"
    for rule in core.SPECS[ExerciseId.parse(exercise)].values():
        assert re.sub(r"\s+", " ", rule.states) in text, f"{exercise} does not state rule {rule.name!r}"


def test_every_rule_a_checker_names_is_in_its_spec():
    """A rule name that is not in the spec would turn into its own text silently; each must be a real rule."""
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(l09))
    position = {"require": 1, "require_deliberate": 2}
    named = {node.args[position[node.func.id]].value for node in ast.walk(tree)
             if isinstance(node, ast.Call) and getattr(node.func, "id", "") in position
             and len(node.args) > position[node.func.id]
             and isinstance(node.args[position[node.func.id]], ast.Constant)}
    named |= {node.args[0].value for node in ast.walk(tree)
              if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "fail"
              and node.args and isinstance(node.args[0], ast.Constant)}
    known = {rule.name for exercise, rules in core.SPECS.items() if exercise.lesson == 9 for rule in rules.values()}
    assert named and named <= known, named - known
