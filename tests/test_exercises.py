"""Exercises: generated from solutions, in sync, failing when unsolved, rejecting wrong answers."""

from __future__ import annotations

import importlib
import pkgutil

import nbformat
import pytest

from conftest import ROOT, errors_of, run_notebook
from course_lib import checks, exercises
from course_lib.checks import CheckFailed, ExerciseNotDone
import wrong_answers

UNSOLVED = sorted((ROOT / "exercises").glob("*.ipynb"))
WRONG = sorted(info.name for info in pkgutil.iter_modules(wrong_answers.__path__))


def exercise_ids() -> list[str]:
    ids = []
    for pair in exercises.pairs(ROOT):
        for cell in nbformat.read(pair.solution, as_version=4).cells:
            exercise = exercises.exercise_of(cell)
            if exercise:
                ids.append(exercise.id)
    return ids


def checker(exercise_id: str):
    lesson, number = exercise_id.split(".")
    return getattr(checks, f"ex_{int(lesson):02d}_{number}")


def test_exercises_are_in_sync_with_solutions():
    assert exercises.build(ROOT, check_only=True) == [], "run `course build` and commit exercises/"


def test_every_solution_has_a_generated_exercise_notebook():
    assert [pair.exercise.name for pair in exercises.pairs(ROOT)] == [path.name for path in UNSOLVED]


@pytest.mark.parametrize("path", UNSOLVED, ids=lambda p: p.name)
def test_unsolved_notebook_fails_at_every_check_cell_and_nowhere_else(path):
    notebook = run_notebook(path)
    checked = 0
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        errors = errors_of(cell)
        if exercises.checked_exercise(cell):
            checked += 1
            assert errors and errors[0].ename == "ExerciseNotDone", cell.source
            assert "is not done yet" in errors[0].evalue and "NotImplementedError" in errors[0].evalue
        else:
            assert not errors, f"{cell.source[:80]!r} raised {errors[0].ename if errors else ''}"
    assert checked >= 1


def test_every_exercise_has_metadata_a_check_cell_and_hints():
    from course_lib import hints

    for pair in exercises.pairs(ROOT):
        notebook = nbformat.read(pair.solution, as_version=4)
        defined = [exercises.exercise_of(c) for c in notebook.cells if exercises.exercise_of(c)]
        checked = [exercises.checked_exercise(c) for c in notebook.cells if exercises.checked_exercise(c)]
        assert [e.id for e in defined] == checked, pair.solution.name
        for exercise in defined:
            assert exercise.kind and exercise.tier in (1, 2, 3) and exercise.minutes > 0 and exercise.todo
            assert len(hints.texts(exercise.id)) >= 2


@pytest.mark.parametrize("module_name", WRONG)
def test_wrong_answer_is_rejected_with_a_hint(module_name):
    module = importlib.import_module(f"wrong_answers.{module_name}")
    with pytest.raises(CheckFailed) as failure:
        checker(module.EXERCISE)(module.answer)
    message = str(failure.value)
    assert message.startswith(f"Exercise {module.EXERCISE}: expected ")
    assert module.EXPECT in message and f'hints.show("{module.EXERCISE}")' in message
    assert "\n" not in message


def test_every_exercise_has_a_kept_wrong_answer():
    covered = {importlib.import_module(f"wrong_answers.{name}").EXERCISE for name in WRONG}
    assert set(exercise_ids()) <= covered


def test_a_stub_is_reported_as_not_done():
    def stub():
        raise NotImplementedError("Exercise 1.1: register one tool")

    with pytest.raises(ExerciseNotDone, match=r"Exercise 1.1 is not done yet: register one tool\."):
        checks.ex_01_1(stub)


def test_a_non_function_or_missing_return_is_a_clear_failure():
    with pytest.raises(CheckFailed, match="pass the function itself"):
        checks.ex_01_4("not a function")
    with pytest.raises(CheckFailed, match="forget `return server`"):
        checks.ex_01_1(lambda: None)


def test_stub_replaces_each_region_at_its_indentation():
    exercise = exercises.Exercise("9.9", "kind", 1, 1, 'say "hi"')
    source = "def f():\n    x = 1\n    ### BEGIN SOLUTION\n    return x\n    ### END SOLUTION\n"
    assert exercises.stub(source, exercise) == (
        "def f():\n    x = 1\n    raise NotImplementedError(\"Exercise 9.9: say \\\"hi\\\"\")\n")


@pytest.mark.parametrize("source, problem", [
    ("### BEGIN SOLUTION\nx = 1\n### END SOLUTION\n", "inside a function body"),
    ("def f():\n    ### BEGIN SOLUTION\n    return 1\n", "unbalanced"),
])
def test_stub_refuses_regions_it_cannot_turn_into_a_stub(source, problem):
    with pytest.raises(exercises.SolutionFormatError, match=problem):
        exercises.stub(source, exercises.Exercise("9.9", "", 1, 1, "x"))
