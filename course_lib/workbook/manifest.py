"""The lesson manifest: which lessons exist and what each consists of (`lessons.toml` beside this file).

Everything that needs "all lessons" or "the lesson of exercise 1.2" asks here. This module imports no
checker and no hint (they import it); `completeness` compares the manifest with the course folder.
"""

from __future__ import annotations

import importlib.util
import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from course_lib.errors import UnknownName
from course_lib.workbook.ids import ExerciseId, lesson_code

MANIFEST = Path(__file__).with_name("lessons.toml")
FOLDERS = ("notebooks", "exercises", "solutions")
WORDS_PER_MINUTE = 130
"""A learner reads prose at about 130 words a minute."""
MINUTES_PER_CODE_CELL = 0.6
"""To run a code cell and find its output, before reading either."""
MINUTES_PER_CODE_LINE = 0.05
"""To read one non-blank line of code (3 seconds)."""
MINUTES_PER_OUTPUT_LINE = 0.06
"""To read one non-blank line of output (3.6 seconds): a table row, a frame, a line of a result."""
# Fitted (least squares, whole-tenth steps) to an expert's per-lesson reading estimates in issue 28: lesson 04
# 26-32 minutes, lessons 01, 03, 05 and 08 5-10 minutes over what was stated, the others about as stated. It
# replaced a flat 1.5 minutes per code cell, which undercounted cells of 30-40 lines and long outputs.
APPENDIX = re.compile(r"#+\s*Appendix\b", re.IGNORECASE)
"""A markdown cell opening with this heading starts the optional part of a lesson: not in its minutes."""


@dataclass(frozen=True)
class Part:
    """What a learner reads in one part of a notebook (the lesson, or its optional appendix)."""

    words: int = 0
    code_cells: int = 0
    code_lines: int = 0
    output_lines: int = 0

    @property
    def minutes(self) -> float:
        return (self.words / WORDS_PER_MINUTE + self.code_cells * MINUTES_PER_CODE_CELL
                + self.code_lines * MINUTES_PER_CODE_LINE + self.output_lines * MINUTES_PER_OUTPUT_LINE)


@dataclass(frozen=True)
class Estimate:
    """The minutes a learner needs for a notebook: its lesson part and its optional appendix."""

    lesson: Part
    appendix: Part = Part()

    @property
    def minutes(self) -> float:
        """Minutes for the lesson itself, up to any appendix."""
        return self.lesson.minutes

    @property
    def appendix_minutes(self) -> float:
        """Minutes for the optional appendix (0 without one)."""
        return self.appendix.minutes


def _lines(text: str) -> int:
    return sum(1 for line in text.splitlines() if line.strip())


def _output_lines(outputs: list) -> int:
    """Non-blank lines of a cell's outputs as text: a stream's text, else a result's plain-text form."""
    total = 0
    for output in outputs:
        text = output.get("text") or output.get("data", {}).get("text/plain", "")
        total += _lines("".join(text) if isinstance(text, list) else text)
    return total


def estimate(notebook: dict) -> Estimate:
    """Estimate a notebook (as nbformat or plain JSON) the way `course lessons` reports it."""
    counts = {False: [0, 0, 0, 0], True: [0, 0, 0, 0]}  # in the appendix? -> Part's fields
    appendix = False
    for cell in notebook["cells"]:
        text = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        if cell["cell_type"] == "markdown":
            appendix = appendix or bool(APPENDIX.match(text.lstrip()))
            counts[appendix][0] += len(text.split())
        elif cell["cell_type"] == "code" and text.strip():
            part = counts[appendix]
            part[1] += 1
            part[2] += _lines(text)
            part[3] += _output_lines(cell.get("outputs", []))
    return Estimate(Part(*counts[False]), Part(*counts[True]))


@dataclass(frozen=True)
class Lesson:
    """One lesson and the parts it is made of."""

    number: str
    slug: str
    title: str
    teaching: int
    exercise_minutes: int
    servers: tuple[str, ...]
    helpers: tuple[str, ...]
    exercises: tuple[ExerciseId, ...]

    @property
    def stem(self) -> str:
        """The file stem shared by its notebooks in all three folders ("01_bad_tool_rewrite")."""
        return f"{self.number}_{self.slug}"

    @property
    def checker_module(self) -> str:
        """The module that holds its checkers and hints."""
        return f"course_lib.checks.l{self.number}"

    def notebook(self, root: Path, folder: str = "notebooks") -> Path:
        """Its notebook in `folder` (notebooks, exercises or solutions) of the course at `root`."""
        return root / folder / f"{self.stem}.ipynb"


def _lesson(entry: dict) -> Lesson:
    number = lesson_code(entry["number"])
    exercises = tuple(ExerciseId.parse(text) for text in entry.get("exercises", []))
    for exercise in exercises:
        if exercise.lesson_code != number:
            raise UnknownName(f"lessons.toml: exercise {exercise} is listed under lesson {number}")
    return Lesson(number, entry["slug"], entry["title"], int(entry["teaching"]), int(entry["exercise_minutes"]),
                  tuple(entry.get("servers", [])), tuple(entry.get("helpers", [])), exercises)


@lru_cache(maxsize=1)
def lessons() -> tuple[Lesson, ...]:
    """Every lesson, in course order."""
    with MANIFEST.open("rb") as file:
        return tuple(_lesson(entry) for entry in tomllib.load(file)["lesson"])


def lesson(number: int | str) -> Lesson:
    """The lesson with this number ("1", "01" or 1)."""
    code = lesson_code(number)
    for found in lessons():
        if found.number == code:
            return found
    raise UnknownName(f"there is no lesson {code}; lessons are {', '.join(l.number for l in lessons())}")


def exercise_ids() -> list[ExerciseId]:
    """Every exercise of the course, in course order."""
    return [exercise for found in lessons() for exercise in found.exercises]


def lesson_of(exercise: ExerciseId | str) -> Lesson:
    """The lesson an exercise belongs to; an `UnknownName` naming the lesson's exercises otherwise."""
    exercise = ExerciseId.parse(exercise)
    owner = lesson(exercise.lesson)
    if exercise not in owner.exercises:
        listed = ", ".join(map(str, owner.exercises)) or "none"
        raise UnknownName(f"there is no exercise {exercise}; lesson {owner.number} has {listed}")
    return owner


ANSWERS = Path("tests") / "answers"
"""Kept answers, one file each: `right/ex_NN_M_<slug>.py` must pass its checker, `wrong/...` must fail it."""


def readme_row(found: Lesson) -> str:
    """The README lesson-table row of a lesson."""
    return f"| {found.number} | {found.title} | {found.teaching} min | {found.exercise_minutes} min |"
