"""Exercise checkers: `checks.ex_NN_M(answer)` for exercise N.M of lesson NN.

Each checker drives the learner's answer through a real in-process MCP client and prints one
✅ line, or raises one line: `ExerciseNotDone` for an untouched stub, `CheckFailed` otherwise.
Lesson modules (`lNN`) are imported only when one of their checkers is used.
"""

from __future__ import annotations

import importlib
import re
from typing import Any

from course_lib.checks._base import CheckFailed, ExerciseNotDone

__all__ = ["CheckFailed", "ExerciseNotDone", "lesson_module"]

_CHECKER = re.compile(r"ex_(\d{2})_(\d+)")


class UnknownExercise(LookupError):
    """An exercise or lesson id that the course does not have."""


def lesson_module(lesson: str):
    """The module holding lesson `lesson`'s checkers and hints (e.g. "01")."""
    try:
        return importlib.import_module(f"course_lib.checks.l{lesson}")
    except ModuleNotFoundError:
        raise UnknownExercise(f"lesson {lesson!r} has no exercises") from None


def __getattr__(name: str) -> Any:
    match = _CHECKER.fullmatch(name)
    if match is None:
        raise AttributeError(f"module 'course_lib.checks' has no attribute {name!r}")
    module = lesson_module(match.group(1))
    try:
        return getattr(module, name)
    except AttributeError:
        raise AttributeError(f"there is no exercise {int(match.group(1))}.{match.group(2)}") from None
