"""Student notebooks generated from the solution notebooks (the single source of exercises).

In `solutions/NN_slug.ipynb` an exercise cell (tag `exercise`, metadata `exercise.id` and
`exercise.todo`) holds its answer between `### BEGIN SOLUTION` and `### END SOLUTION`, inside a
function body. `exercises/NN_slug.ipynb` gets the same cells with each answer replaced by
`raise NotImplementedError("Exercise N.M: <todo>")` and every output cleared.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from pathlib import Path

import nbformat

BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
_REGION = re.compile(r"^([ \t]*)### BEGIN SOLUTION[^\n]*\n.*?^[ \t]*### END SOLUTION[^\n]*(\n|$)", re.S | re.M)
_CHECK_CALL = re.compile(r"checks\.ex_(\d{2})_(\d+)\(")


class SolutionFormatError(ValueError):
    """A solution notebook whose markers cannot be turned into a stub."""


@dataclass(frozen=True)
class Exercise:
    """The metadata of one exercise cell."""

    id: str
    kind: str
    tier: int
    minutes: int
    todo: str


def exercise_of(cell) -> Exercise | None:
    """The exercise a cell defines, from its metadata, or None."""
    meta = cell.get("metadata", {}).get("exercise")
    if not meta:
        return None
    return Exercise(meta["id"], meta.get("kind", ""), int(meta.get("tier", 1)), int(meta.get("minutes", 0)),
                    meta.get("todo", "write your answer"))


def checked_exercise(cell) -> str | None:
    """The exercise id a check cell verifies (from its `checks.ex_NN_M(` call), or None."""
    match = _CHECK_CALL.search(cell.get("source", "")) if cell.get("cell_type") == "code" else None
    return f"{int(match.group(1))}.{match.group(2)}" if match else None


def stub(source: str, exercise: Exercise) -> str:
    """`source` with every solution region replaced by a NotImplementedError stub."""
    if source.count(BEGIN) != source.count(END):
        raise SolutionFormatError(f"exercise {exercise.id}: unbalanced {BEGIN!r} / {END!r} markers")

    def replace(match: re.Match) -> str:
        indent = match.group(1)
        if not indent:
            raise SolutionFormatError(f"exercise {exercise.id}: a solution region must sit inside a function body")
        message = f"Exercise {exercise.id}: {exercise.todo}".replace("\\", "\\\\").replace('"', '\\"')
        return f'{indent}raise NotImplementedError("{message}"){match.group(2)}'

    return _REGION.sub(replace, source)


def student_version(solution: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The student notebook for a solution notebook: stubs in, outputs out."""
    notebook = copy.deepcopy(solution)
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        exercise = exercise_of(cell)
        if BEGIN in cell.source:
            if exercise is None:
                raise SolutionFormatError("a cell with a solution region needs metadata exercise.id and todo")
            cell.source = stub(cell.source, exercise)
        cell.outputs, cell.execution_count = [], None
        cell.metadata.pop("execution", None)
    return notebook


def render(notebook: nbformat.NotebookNode) -> str:
    """A notebook as the exact text written to disk."""
    return nbformat.writes(notebook) + "\n"


@dataclass(frozen=True)
class Pair:
    """A solution notebook and the student notebook generated from it."""

    solution: Path
    exercise: Path


def pairs(root: Path) -> list[Pair]:
    """Every solution notebook under `root/solutions` with its target in `root/exercises`."""
    return [Pair(path, root / "exercises" / path.name) for path in sorted((root / "solutions").glob("*.ipynb"))]


def build(root: Path, check_only: bool = False) -> list[Path]:
    """Write (or with `check_only`, only compare) every student notebook; returns those that differ."""
    stale = []
    for pair in pairs(root):
        wanted = render(student_version(nbformat.read(pair.solution, as_version=4)))
        current = pair.exercise.read_text(encoding="utf-8") if pair.exercise.exists() else None
        if current != wanted:
            stale.append(pair.exercise)
            if not check_only:
                pair.exercise.parent.mkdir(parents=True, exist_ok=True)
                pair.exercise.write_text(wanted, encoding="utf-8")
    return stale
