"""Hints for the exercises, revealed one level at a time: `hints.show("1.2")`.

The texts live beside each lesson's checkers (`course_lib.checks.lNN.HINTS`).
"""

from __future__ import annotations

import re

from course_lib.checks import UnknownExercise, lesson_module

_ID = re.compile(r"(\d{1,2})\.(\d+)")
_revealed: dict[str, int] = {}


def texts(exercise_id: str) -> tuple[str, ...]:
    """All hint levels of an exercise, from gentle to nearly the answer."""
    match = _ID.fullmatch(exercise_id.strip())
    if match is None:
        raise UnknownExercise(f"{exercise_id!r} is not an exercise id; ids look like 1.2")
    lesson_hints = lesson_module(f"{int(match.group(1)):02d}").HINTS
    key = f"{int(match.group(1))}.{match.group(2)}"
    if key not in lesson_hints:
        raise UnknownExercise(f"there is no exercise {key}; this lesson has {', '.join(lesson_hints)}")
    return lesson_hints[key]


def render(exercise_id: str, level: int) -> str:
    """Hint `level` (1-based) of an exercise, with a note of how many remain."""
    levels = texts(exercise_id)
    level = max(1, min(level, len(levels)))
    more = f" Run hints.show(\"{exercise_id}\") again for the next hint." if level < len(levels) else ""
    return f"Hint {level} of {len(levels)} for exercise {exercise_id}: {levels[level - 1]}{more}"


def show(exercise_id: str, level: int | None = None) -> None:
    """Print the next hint of an exercise (or a given level); each call reveals one more."""
    if level is None:
        level = _revealed.get(exercise_id, 0) + 1
    _revealed[exercise_id] = max(_revealed.get(exercise_id, 0), level)
    print(render(exercise_id, level))
