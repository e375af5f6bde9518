"""Exercise checkers: `checks.ex_NN_M(answer)` checks exercise N.M.

Each lesson's checkers live in `course_lib.checks.lNN`, registered by id with `@checker("N.M")`;
a lesson module is imported only when one of its checkers is first used. `dir(checks)` (and so
`checks.<Tab>` in a notebook) lists every exercise's checker. `checks.summary("01")`, the last cell of
each exercise notebook, says how many of a lesson's exercises passed in this kernel and what is next.
"""

from __future__ import annotations

import importlib
from typing import Any

from course_lib.errors import CheckFailed, ExerciseNotDone, UnknownName
from course_lib.workbook.ids import ExerciseId

__all__ = ["CheckFailed", "ExerciseNotDone", "registered", "summary"]


def registered(exercise: ExerciseId | str):
    """The checker registered for an exercise (importing its lesson's module), or None."""
    from course_lib.checks.core import REGISTRY
    from course_lib.workbook import manifest

    exercise = ExerciseId.parse(exercise)
    if exercise not in REGISTRY:
        try:
            importlib.import_module(manifest.lesson_of(exercise).checker_module)
        except (UnknownName, ModuleNotFoundError):
            return None
    return REGISTRY.get(exercise)


def summary(lesson: str) -> None:
    """How many of lesson `lesson`'s exercises passed in this kernel ("2 of 4 done; next: 1.3"); never raises."""
    from course_lib.checks.core import summary as show_summary

    show_summary(lesson)


def __getattr__(name: str) -> Any:
    exercise = ExerciseId.from_checker(name)
    if exercise is None:
        raise AttributeError(f"module 'course_lib.checks' has no attribute {name!r}")
    found = registered(exercise)
    if found is None:
        raise AttributeError(f"there is no exercise {exercise}")
    from course_lib.checks.core import watch_check_cells

    watch_check_cells()  # looked up before the answer is: a check cell run too early gets a ⏳ status
    return found


def __dir__() -> list[str]:
    from course_lib.workbook import manifest

    return sorted([*globals(), *(exercise.checker_name for exercise in manifest.exercise_ids())])
