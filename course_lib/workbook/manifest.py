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
MINUTES_PER_CODE_CELL = 1.5
"""A learner reads prose at about 130 words a minute and needs about 1.5 minutes to run a cell and read its output."""
APPENDIX = re.compile(r"#+\s*Appendix\b", re.IGNORECASE)
"""A markdown cell opening with this heading starts the optional part of a lesson: not in its minutes."""


@dataclass(frozen=True)
class Estimate:
    """The minutes a learner needs for a notebook, from its markdown words and its code cells."""

    words: int
    code_cells: int
    appendix_words: int = 0
    appendix_code_cells: int = 0

    @property
    def minutes(self) -> float:
        """Minutes for the lesson itself, up to any appendix."""
        return self.words / WORDS_PER_MINUTE + self.code_cells * MINUTES_PER_CODE_CELL

    @property
    def appendix_minutes(self) -> float:
        """Minutes for the optional appendix (0 without one)."""
        return self.appendix_words / WORDS_PER_MINUTE + self.appendix_code_cells * MINUTES_PER_CODE_CELL


def estimate(notebook: dict) -> Estimate:
    """Estimate a notebook (as nbformat or plain JSON) the way `course lessons` reports it."""
    counts = {False: [0, 0], True: [0, 0]}  # in the appendix? -> [words, code cells]
    appendix = False
    for cell in notebook["cells"]:
        text = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        if cell["cell_type"] == "markdown":
            appendix = appendix or bool(APPENDIX.match(text.lstrip()))
            counts[appendix][0] += len(text.split())
        elif cell["cell_type"] == "code" and text.strip():
            counts[appendix][1] += 1
    return Estimate(*counts[False], *counts[True])


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
