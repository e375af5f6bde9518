"""Hints for the exercises, revealed one level at a time: `hints.show("1.2")`.

The texts live beside each lesson's checkers (`HINTS` in `course_lib.checks.lNN`). They climb: level 1 gives the
idea the exercise is about, level 2 the API that does it, the last level says it is the last, and a call past the
last says there are no more. Once a check has failed on a rule, level 1 is the idea behind that rule instead
(`course_lib.checks.concepts`): where the lesson teaches it, in one sentence, never the answer.
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


def _kind(level: int, total: int) -> str:
    """What a hint level gives: the idea the exercise is about, then the API that does it, then the closest look."""
    if level == total:
        return "the last hint"
    return ("the idea", "the API")[level - 1] if level <= 2 else "a closer look"


def failed_rule(exercise: ExerciseId | str) -> str:
    """The rule the latest check of `exercise` in this process failed on first, or ""."""
    from course_lib.checks import core

    return core.FAILED_RULE.get(ExerciseId.parse(exercise), "")


def render(exercise: ExerciseId | str, level: int, rule: str = "") -> str:
    """Hint `level` (1-based) of an exercise, saying what kind of hint it is and what comes next; past the last
    level, that there are no more. With the `rule` a check failed on, level 1 is the idea behind that rule."""
    return " ".join(part for part in _parts(exercise, level, rule) if part)


def _parts(exercise: ExerciseId | str, level: int, rule: str = "") -> tuple[str, str, str]:
    """A hint as (its lead, such as "Hint 1 of 3 (the idea) for exercise 1.2:", its text, what comes next); past the
    last level, ("", the no-more text, "")."""
    from course_lib.checks.concepts import concept

    exercise = ExerciseId.parse(exercise)
    texts = levels(exercise)
    idea = concept(str(exercise), rule) if rule else None
    if idea and texts:
        texts = (f"{idea} (The idea behind the rule your check broke.)", *texts[1:])
    total = len(texts)
    if level > total:
        return ("", f"No more hints for exercise {exercise}: hint {total} of {total} was the last. Read the "
                    "check's message again (what it expected, what it found), compare it with your code, or ask your "
                    "instructor.", "")
    level = max(1, level)
    if level < total:
        more = f"Run {exercise.hint_call} again for hint {level + 1} of {total} ({_kind(level + 1, total)})."
    else:
        more = "That was the last hint for this exercise."
    return f"Hint {level} of {total} ({_kind(level, total)}) for exercise {exercise}:", texts[level - 1], more


def show(exercise: ExerciseId | str, level: int | None = None) -> None:
    """Print the next hint of an exercise (or a given level); each call reveals one more."""
    exercise = ExerciseId.parse(exercise)
    if level is None:
        level = _revealed.get(exercise, 0) + 1
    _revealed[exercise] = max(_revealed.get(exercise, 0), min(level, len(levels(exercise))))
    parts = _parts(exercise, level, failed_rule(exercise))
    # Wrapped at word boundaries here: JupyterLab breaks a long printed line anywhere, even mid-word.
    text = textwrap.fill(" ".join(part for part in parts if part), width=100, subsequent_indent="  ",
                         break_long_words=False, break_on_hyphens=False)
    from course_lib.checks import core

    if core._interactive():  # a learner's own JupyterLab kernel: a box like the checks' (a run stores the text)
        core._display({"text/plain": text, "text/html": as_card(parts)})
    else:
        print(text)


def as_card(parts: tuple[str, str, str]) -> str:
    """A hint as the checks' styled box: 💡, its lead in bold, its text, and what comes next on a line of its own."""
    from course_lib.checks.core import as_html, card

    lead, text, more = parts
    said = f"<b>{as_html(lead)}</b> " if lead else ""
    after = f'<br><span style="color:#4b5563">{as_html(more)}</span>' if more else ""
    return card("hint", f"💡 {said}{as_html(text)}{after}")
