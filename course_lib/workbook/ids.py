"""The exercise id: "N.M" for exercise M of lesson N, and every name derived from it.

This is the only code that knows the grammar. A checker is `checks.ex_NN_M`, a hint is
`hints.show("N.M")`, a lesson's checker module is `course_lib.checks.lNN`, a kept answer file is
`ex_NN_M_<slug>.py`; each is asked of an `ExerciseId`, never spelled out elsewhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from course_lib.errors import UnknownName

_HUMAN = re.compile(r"(\d{1,2})\.(\d{1,2})")
_CHECKER = re.compile(r"ex_(\d{2})_(\d{1,2})")
_ANSWER_FILE = re.compile(r"ex_(\d{2})_(\d{1,2})_(\w+)")


def lesson_code(lesson: int | str) -> str:
    """A lesson number as the two digits used in file and module names ("01")."""
    text = str(lesson).strip()
    if not text.isdigit() or int(text) > 99:
        raise UnknownName(f"{lesson!r} is not a lesson number; lesson numbers look like 01")
    return f"{int(text):02d}"


@dataclass(frozen=True, order=True)
class ExerciseId:
    """Exercise `number` of lesson `lesson`, written "N.M" (e.g. 1.2)."""

    lesson: int
    number: int

    @classmethod
    def parse(cls, text: str | ExerciseId) -> ExerciseId:
        """From "1.2" (or "01.2"); anything else is an `UnknownName` saying what an id looks like."""
        if isinstance(text, ExerciseId):
            return text
        match = _HUMAN.fullmatch(str(text).strip())
        if match is None:
            raise UnknownName(f"{text!r} is not an exercise id; ids look like 1.2")
        return cls(int(match.group(1)), int(match.group(2)))

    @classmethod
    def from_checker(cls, name: str) -> ExerciseId | None:
        """From a checker name such as "ex_01_2", or None when `name` is not one."""
        match = _CHECKER.fullmatch(name)
        return cls(int(match.group(1)), int(match.group(2))) if match else None

    @classmethod
    def from_answer_file(cls, stem: str) -> tuple[ExerciseId, str] | None:
        """From a kept answer's file stem "ex_01_2_<slug>": the id and the slug, or None."""
        match = _ANSWER_FILE.fullmatch(stem)
        return (cls(int(match.group(1)), int(match.group(2))), match.group(3)) if match else None

    def __str__(self) -> str:
        return f"{self.lesson}.{self.number}"

    @property
    def lesson_code(self) -> str:
        """The lesson as two digits ("01")."""
        return lesson_code(self.lesson)

    @property
    def checker_name(self) -> str:
        """The checker's name in `course_lib.checks` ("ex_01_2")."""
        return f"ex_{self.lesson_code}_{self.number}"

    @property
    def hint_call(self) -> str:
        """The call a learner types for a hint (`hints.show("1.2")`)."""
        return f'hints.show("{self}")'

    def answer_file(self, slug: str) -> str:
        """The file name of a kept answer to this exercise ("ex_01_2_<slug>.py")."""
        return f"{self.checker_name}_{slug}.py"
