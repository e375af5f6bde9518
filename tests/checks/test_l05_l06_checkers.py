"""Lessons 05 and 06: every rule of a checker's spec is stated in its exercise text, and the probes' helpers
judge by meaning (incident-ID patterns, exclusive bounds, code-only rebuilds in fresh processes)."""

from __future__ import annotations

import importlib.util

import nbformat
import pytest

from conftest import ROOT
from course_lib.checks import core, l05, l06, schemas
from course_lib.errors import CheckFailed
from course_lib.workbook.ids import ExerciseId

NOTEBOOKS = {"5": "05_safe_mutation_incidents.ipynb", "6": "06_what_tools_cost.ipynb"}
EXERCISES = ["5.1", "5.2", "5.3", "6.1", "6.2", "6.3", "6.4"]


def exercise_text(folder: str, exercise: str) -> str:
    """The markdown between the exercise's heading and the next exercise's heading."""
    notebook = nbformat.read(ROOT / folder / NOTEBOOKS[exercise.split(".")[0]], 4)
    text, inside = [], False
    for cell in notebook.cells:
        if cell.cell_type != "markdown":
            continue
        if cell.source.startswith("## Exercise "):
            inside = cell.source.startswith(f"## Exercise {exercise} ")
        if inside:
            text.append(cell.source)
    return "\n".join(text)


@pytest.mark.parametrize("pattern", [r"^INC-[0-9]+$", r"^INC-\d+$", r"\AINC-[0-9]{1,}\Z", r"^(INC)-[0-9]+$"])
def test_equivalent_incident_id_patterns_are_accepted(pattern):
    assert l05._means_incident_id(pattern)


@pytest.mark.parametrize("pattern", [r"INC-[0-9]+", r"^INC-[0-9]*$", r"^inc-[0-9]+$", r"^INC-.+$", r"^[A-Z]+-[0-9]+$",
                                     None, r"^INC-[0-9+$"])
def test_loose_or_wrong_incident_id_patterns_are_refused(pattern):
    assert not l05._means_incident_id(pattern)


def test_exclusive_bounds_read_as_inclusive_ones():
    assert l06._bounds({"exclusiveMinimum": 0, "exclusiveMaximum": 21}) == (1, 20)
    assert l06._bounds({"minimum": 1, "maximum": 20}) == (1, 20)
    assert l06._bounds({}) == (None, None)


def test_a_ref_resolves_to_its_definition():
    root = {"$defs": {"Status": {"enum": ["open", "closed"], "type": "string"}}}
    assert schemas.resolve({"$ref": "#/$defs/Status", "default": "open"}, root) == {
        "enum": ["open", "closed"], "type": "string", "default": "open"}


ORDER = ["b", "a"]


def uses_a_value():
    return ORDER


def helper():
    return ["x"]


def uses_a_helper():
    return helper()


def test_fresh_process_source_sends_code_never_values():
    token = core._current.set(ExerciseId.parse("6.2"))
    try:
        with pytest.raises(CheckFailed, match="uses 'ORDER', a value computed outside it"):
            l06._source_for_fresh_process(uses_a_value)
        source, name = l06._source_for_fresh_process(uses_a_helper)
    finally:
        core._current.reset(token)
    assert "helper" in source and "def uses_a_helper" in source and "ORDER" not in source
    assert name == "uses_a_helper"


register = ["a value that only shares its name with an attribute"]


def uses_an_attribute_named_like_a_global():
    from course_lib.servers import workspace

    return workspace.register


def test_an_attribute_is_not_mistaken_for_a_global_value():
    token = core._current.set(ExerciseId.parse("6.2"))
    try:
        source, _ = l06._source_for_fresh_process(uses_an_attribute_named_like_a_global)
    finally:
        core._current.reset(token)
    assert "def uses_an_attribute_named_like_a_global" in source


def test_5_3_an_answer_that_ignores_as_user_is_not_blamed_for_it():
    """Refusals that differ by one character break only the one-answer rule: the asUser call is compared with
    the same call without asUser, not with the missing incident's answer."""
    path = ROOT / "tests/answers/wrong/ex_05_3_slightly_different_refusals.py"
    spec = importlib.util.spec_from_file_location("slightly_different_refusals", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with pytest.raises(CheckFailed) as failure:
        l05.ex_05_3(module.answer)
    rules = [broken.rule for broken in getattr(failure.value, "failures", [failure.value])]
    assert rules == ["same"], str(failure.value)
