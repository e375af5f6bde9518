"""Student notebooks generated from the solution notebooks (the single source of exercises).

In `solutions/NN_slug.ipynb` an exercise cell (tag `exercise`, metadata `exercise.id` and
`exercise.todo`) holds its answer between `### BEGIN SOLUTION` and `### END SOLUTION`, inside a
function body, and the next code cell (tag `check`) calls the exercise's checker. `course build`
writes `exercises/NN_slug.ipynb`: the same cells, each answer replaced by
`raise NotImplementedError("Exercise N.M: <todo>")`, every output cleared.

`exercises/.generated.json` keeps the SHA-256 of each notebook as `course build` last wrote it, so a notebook
someone has worked in (edited) is told from one that is only out of date (stale): a build overwrites a stale one
and refuses an edited one unless forced, naming it.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
import stat
import textwrap
from dataclasses import dataclass
from pathlib import Path

import nbformat

from course_lib.errors import BadFile, UsageError
from course_lib.workbook.ids import ExerciseId

BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
_REGION = re.compile(r"^([ \t]*)### BEGIN SOLUTION[^\n]*\n.*?^[ \t]*### END SOLUTION[^\n]*(\n|$)", re.S | re.M)


@dataclass(frozen=True)
class Exercise:
    """The metadata of one exercise cell."""

    id: ExerciseId
    kind: str
    tier: int
    minutes: int
    todo: str


@dataclass(frozen=True)
class ExerciseCells:
    """An exercise and where it sits: its exercise cell and its check cell (indexes among code cells)."""

    exercise: Exercise
    exercise_cell: int
    check_cell: int


def read(path: Path) -> nbformat.NotebookNode:
    """Read and validate a notebook; a one-line `BadFile` otherwise."""
    if not path.exists():
        raise BadFile(f"no such file: {path}")
    if path.is_dir() or path.suffix != ".ipynb":
        raise BadFile(f"{path} is not a notebook (expected a .ipynb file)")
    try:
        notebook = nbformat.read(path, as_version=4)
        nbformat.validate(notebook)
    except Exception as error:  # nbformat raises several unrelated types for broken files
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise BadFile(f"{path} is not a valid notebook: {first[:200]}") from None
    return notebook


SUBMISSION_BYTES = 16 << 20
"""The most a submitted notebook may weigh: 16 MB, about 45 times the largest notebook of the course
(notebooks/06_what_tools_cost.ipynb, 356 kB with its charts), room for any honest outputs."""


def read_submission(path: Path, shown: str | None = None, limit: int = SUBMISSION_BYTES) -> nbformat.NotebookNode:
    """Read a submitted notebook as data: a regular file only (never a symbolic link, a folder, a device or a
    pipe), opened without following links, at most `limit` bytes. A refusal is a one-line `BadFile` that names
    the file as `shown` (default: its name) and echoes nothing of its content or of where the grader keeps it."""
    name = shown or path.name
    if path.suffix != ".ipynb" and not os.path.islink(path) and os.path.isfile(path):
        raise BadFile(f"{name} is not a notebook (expected a .ipynb file)")
    return parse(regular_bytes(path, name, limit, one_name=True), name)


def regular_bytes(path: Path, name: str, limit: int = SUBMISSION_BYTES, one_name: bool = False) -> bytes:
    """The bytes of a regular file, refusing a symbolic link (never followed: `O_NOFOLLOW`), anything else that is
    not a regular file, and a file over `limit` bytes; with `one_name`, a file with more than one name (a hard link
    to the course's solution or a classmate's notebook is a regular file too); refusals name the file as `name`."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        raise BadFile(f"no such file: {name}") from None
    except OSError:
        raise BadFile(f"{name} cannot be read") from None
    if stat.S_ISLNK(info.st_mode):
        raise BadFile(f"{name} is a symbolic link, which the grader never follows: hand in the notebook file "
                      "itself")
    if not stat.S_ISREG(info.st_mode):
        raise BadFile(f"{name} is not a regular file (a folder, device or pipe): hand in the notebook file itself")
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        descriptor = os.open(path, flags)
    except OSError:  # ELOOP: it became a link after it was looked at
        raise BadFile(f"{name} cannot be opened as a regular file: hand in the notebook file itself") from None
    with os.fdopen(descriptor, "rb") as file:
        opened = os.fstat(file.fileno())
        if not stat.S_ISREG(opened.st_mode):
            raise BadFile(f"{name} is not a regular file: hand in the notebook file itself")
        if one_name and opened.st_nlink > 1:
            raise BadFile(f"{name} is a hard link (the file has {opened.st_nlink} names), which the grader refuses: "
                          "hand in a copy of the notebook file itself")
        data = file.read(limit + 1)
    if len(data) > limit:
        raise BadFile(f"{name} is larger than {limit >> 20} MB: clear its outputs (Kernel > Restart & Clear Output) "
                      "and save it")
    return data


def parse(data: bytes, name: str) -> nbformat.NotebookNode:
    """A notebook from a file's bytes; a one-line `BadFile` that quotes nothing of them otherwise."""
    try:
        content = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise BadFile(f"{name} is not a valid notebook: it is not UTF-8 text") from None
    except (ValueError, RecursionError) as error:
        where = f" (line {error.lineno}, column {error.colno})" if isinstance(error, json.JSONDecodeError) else ""
        raise BadFile(f"{name} is not a valid notebook: it is not JSON{where}") from None
    try:
        notebook = nbformat.reads(json.dumps(content), as_version=4)
        nbformat.validate(notebook)
    except Exception:  # nbformat's messages quote the file; say only what is wrong with it
        raise BadFile(f"{name} is not a valid notebook: it does not follow the Jupyter notebook format 4 (open it "
                      "in Jupyter and save it again)") from None
    return notebook


def exercise_of(cell) -> Exercise | None:
    """The exercise a cell defines, from its metadata, or None."""
    meta = cell.get("metadata", {}).get("exercise")
    if not meta:
        return None
    return Exercise(ExerciseId.parse(meta["id"]), meta.get("kind", ""), int(meta.get("tier", 1)),
                    int(meta.get("minutes", 0)), meta.get("todo", "write your answer"))


def is_check_cell(cell) -> bool:
    """Whether a cell is an exercise's check cell (tag `check`)."""
    return cell.get("cell_type") == "code" and "check" in cell.get("metadata", {}).get("tags", [])


def exercise_pairs(notebook: nbformat.NotebookNode) -> list[ExerciseCells]:
    """Each exercise with its check cell: the first check cell after the exercise cell, which must call its checker."""
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    found: list[ExerciseCells] = []
    for index, cell in enumerate(code):
        exercise = exercise_of(cell)
        if exercise is None:
            continue
        check = next((i for i in range(index + 1, len(code)) if is_check_cell(code[i])), None)
        if check is None or f"checks.{exercise.id.checker_name}(" not in code[check].source:
            raise BadFile(f"exercise {exercise.id}: the next check cell must call checks.{exercise.id.checker_name}(...)")
        found.append(ExerciseCells(exercise, index, check))
    return found


STUB_WIDTH = 88  # a stub line wider than this is wrapped, so it fits the cell without scrolling


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _raise_line(indent: str, message: str) -> str:
    """`raise NotImplementedError("message")`, wrapped at word boundaries over several string literals if long."""
    line = f"{indent}raise NotImplementedError({_quoted(message)})"
    if len(line) <= STUB_WIDTH:
        return line
    inner = indent + "    "
    pieces = textwrap.wrap(message, STUB_WIDTH - len(inner) - 3, drop_whitespace=False, break_long_words=False,
                           break_on_hyphens=False)
    body = "\n".join(inner + _quoted(piece) for piece in pieces)
    return f"{indent}raise NotImplementedError(\n{body}\n{indent})"


def stub(source: str, exercise: Exercise) -> str:
    """`source` with every solution region replaced by a NotImplementedError stub."""
    if source.count(BEGIN) != source.count(END):
        raise BadFile(f"exercise {exercise.id}: unbalanced {BEGIN!r} / {END!r} markers")

    def replace(match: re.Match) -> str:
        indent = match.group(1)
        if not indent:
            raise BadFile(f"exercise {exercise.id}: a solution region must sit inside a function body")
        message = f"Exercise {exercise.id}: {exercise.todo}"
        return _raise_line(indent, message) + match.group(2)

    return _REGION.sub(replace, source)


def student_version(solution: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The student notebook for a solution notebook: stubs in, outputs out."""
    exercise_pairs(solution)  # refuses an exercise without its check cell
    notebook = copy.deepcopy(solution)
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        exercise = exercise_of(cell)
        if BEGIN in cell.source:
            if exercise is None:
                raise BadFile("a cell with a solution region needs metadata exercise.id and todo")
            cell.source = stub(cell.source, exercise)
        cell.outputs, cell.execution_count = [], None
        cell.metadata.pop("execution", None)
    return notebook


def render(notebook: nbformat.NotebookNode) -> str:
    """A notebook as the exact text written to disk."""
    return nbformat.writes(notebook) + "\n"


@dataclass(frozen=True)
class NotebookPair:
    """A solution notebook and the student notebook generated from it."""

    solution: Path
    exercise: Path


def notebook_pairs(root: Path) -> list[NotebookPair]:
    """Every solution notebook under `root/solutions` with its target in `root/exercises`."""
    return [NotebookPair(path, root / "exercises" / path.name) for path in sorted((root / "solutions").glob("*.ipynb"))]


RECORD = Path("exercises") / ".generated.json"
"""The SHA-256 of each exercise notebook as `course build` last wrote it (file name -> hex digest)."""


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _recorded(root: Path) -> dict[str, str]:
    try:
        found = json.loads((root / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(name): str(digest) for name, digest in found.items()} if isinstance(found, dict) else {}


def _untouched(text: str) -> bool:
    """For a notebook the record does not know: no cell was run (no output, no count) and every stub is in place."""
    try:
        notebook = nbformat.reads(text, as_version=4)
    except Exception:  # unreadable: someone changed it
        return False
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    return (all(not cell.get("outputs") and cell.get("execution_count") is None for cell in code)
            and all("raise NotImplementedError(" in cell.source for cell in code if exercise_of(cell)))


def edited(root: Path, path: Path) -> bool:
    """Whether the exercise notebook at `path` holds changes that `course build` did not write there."""
    if not path.exists():
        return False
    text = path.read_text(encoding="utf-8", errors="replace")
    digest = _recorded(root).get(path.name)
    return _digest(text) != digest if digest else not _untouched(text)


def refuse_edited(paths: list[Path], root: Path, advice: str) -> None:
    """A one-line `UsageError` naming the edited notebooks, unless there are none."""
    if paths:
        names = ", ".join(str(path.relative_to(root)) if path.is_relative_to(root) else str(path) for path in paths)
        raise UsageError(f"{names} {'has' if len(paths) == 1 else 'have'} edits that `course build` did not write "
                         f"(someone worked in {'it' if len(paths) == 1 else 'them'}): {advice}")


def build(root: Path, check_only: bool = False, force: bool = False) -> list[Path]:
    """Write (or with `check_only`, only compare) every student notebook; returns those that differ.

    A notebook that differs and holds edits (see `edited`) is refused with a `UsageError` naming it, unless `force`.
    """
    wanted = {pair.exercise: render(student_version(read(pair.solution))) for pair in notebook_pairs(root)}
    stale = [path for path, text in wanted.items()
             if (path.read_text(encoding="utf-8", errors="replace") if path.exists() else None) != text]
    if check_only:
        return stale
    if not force:
        refuse_edited([path for path in stale if edited(root, path)], root,
                      "move the work into solutions/ (or save a copy elsewhere), or pass --force to overwrite it")
    for path in stale:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(wanted[path], encoding="utf-8")
    record = {path.name: _digest(text) for path, text in sorted(wanted.items())}
    if wanted and _recorded(root) != record:
        (root / RECORD).write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return stale
