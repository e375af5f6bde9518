"""Hints for the exercises, revealed one level at a time: `hints.show("1.2")`.

The texts live beside each lesson's checkers (`HINTS` in `course_lib.checks.lNN`).
"""

from __future__ import annotations

import importlib
import textwrap

from course_lib.workbook.ids import ExerciseId

_revealed: dict[ExerciseId, int] = {}


def levels(exercise: ExerciseId | str) -> tuple[str, ...]:
    """All hint levels of an exercise, from gentle to nearly the answer (an `UnknownName` for a wrong id)."""
    from course_lib.workbook import manifest

    exercise = ExerciseId.parse(exercise)
    module = importlib.import_module(manifest.lesson_of(exercise).checker_module)
    return tuple(getattr(module, "HINTS", {}).get(str(exercise), ()))


def render(exercise: ExerciseId | str, level: int) -> str:
    """Hint `level` (1-based) of an exercise, with a note of how many remain."""
    exercise = ExerciseId.parse(exercise)
    texts = levels(exercise)
    level = max(1, min(level, len(texts)))
    more = f" Run {exercise.hint_call} again for the next hint." if level < len(texts) else ""
    return f"Hint {level} of {len(texts)} for exercise {exercise}: {texts[level - 1]}{more}"


def show(exercise: ExerciseId | str, level: int | None = None) -> None:
    """Print the next hint of an exercise (or a given level); each call reveals one more."""
    exercise = ExerciseId.parse(exercise)
    if level is None:
        level = _revealed.get(exercise, 0) + 1
    _revealed[exercise] = max(_revealed.get(exercise, 0), level)
    # Wrapped at word boundaries here: JupyterLab breaks a long printed line anywhere, even mid-word.
    print(textwrap.fill(render(exercise, level), width=100, subsequent_indent="  ", break_long_words=False,
                        break_on_hyphens=False))
