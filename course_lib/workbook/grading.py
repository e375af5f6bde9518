"""`course grade DIR`: check every student notebook in a folder, each in its own worker process, and tabulate.

Each notebook is checked by `runner.check` in a fresh worker process (its own process group, so a
hung kernel is killed with it) with a time limit, `jobs` at a time; a notebook that hangs or
crashes costs only its own row. Results go to grades.csv and grades.html.
"""

from __future__ import annotations

import csv
import html
import multiprocessing
import os
import signal
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from course_lib.workbook.outcomes import SYMBOLS, Outcome
from course_lib.workbook.ids import ExerciseId


@dataclass(frozen=True)
class Row:
    """One exercise of one student's notebook."""

    student: str
    notebook: str
    outcome: Outcome


def submissions(folder: Path) -> list[tuple[str, Path]]:
    """(student, notebook) pairs: `DIR/<student>/NN_x.ipynb`, or `DIR/<student>.ipynb` when flat."""
    found = []
    for path in sorted(folder.rglob("*.ipynb")):
        if ".ipynb_checkpoints" in path.parts:
            continue
        relative = path.relative_to(folder)
        student = relative.parts[0] if len(relative.parts) > 1 else path.stem
        found.append((student, path))
    return found


def _worker(path: str, cell_timeout: int, results) -> None:
    """In the worker process: check one notebook and send back its outcomes (or the one-line reason it could not)."""
    os.setsid()  # the kernel nbval starts joins this process group, so a timeout kills both
    from course_lib.lazy_imports import defer_iri_grammar

    defer_iri_grammar()  # before nbformat imports jsonschema
    from course_lib.errors import CourseError
    from course_lib.workbook import runner

    try:
        results.send(("ok", runner.check(Path(path), timeout=cell_timeout)))
    except CourseError as error:
        results.send(("unreadable", str(error)))
    except Exception as error:  # anything else still becomes this notebook's row
        results.send(("unreadable", f"{type(error).__name__}: {error}"))


def grade_one(student: str, path: Path, timeout: int) -> list[Row]:
    """Check one notebook in a worker process; a hang or a broken file becomes a row, not a crash."""
    context = multiprocessing.get_context("spawn")
    receive, send = context.Pipe(duplex=False)
    worker = context.Process(target=_worker, args=(str(path), max(1, timeout - 5), send), daemon=True)
    worker.start()
    send.close()
    try:
        if receive.poll(timeout):
            kind, payload = receive.recv()
        else:
            kind, payload = "timeout", f"no result within {timeout} s"
    except EOFError:
        kind, payload = "unreadable", "the worker process stopped without a result"
    finally:
        if worker.is_alive():
            try:
                os.killpg(worker.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                worker.kill()
        worker.join(10)
    if kind == "ok":
        return [Row(student, path.name, outcome) for outcome in payload]
    return [Row(student, path.name, Outcome("*", kind, payload.removeprefix("course: ")))]


def grade(folder: Path, timeout: int = 120, jobs: int = 2) -> list[Row]:
    """Rows for every submission in `folder`, in a stable order."""
    pairs = submissions(folder)
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = pool.map(lambda pair: grade_one(pair[0], pair[1], timeout), pairs)
        return [row for rows in results for row in rows]


def write_csv(rows: list[Row], path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["student", "notebook", "exercise", "status", "detail"])
        writer.writerows([r.student, r.notebook, r.outcome.exercise, r.outcome.status, r.outcome.message]
                         for r in rows)


def _column_key(exercise: str) -> tuple:
    return (1,) if exercise == "*" else (0, ExerciseId.parse(exercise))


def pivot(rows: list[Row]) -> tuple[list[str], list[str], dict[tuple[str, str], Outcome]]:
    """Students, exercise columns (ids such as 1.2; `*` for a whole notebook) and the outcome at each crossing."""
    students = sorted({r.student for r in rows})
    columns = sorted({r.outcome.exercise for r in rows}, key=_column_key)
    cells: dict[tuple[str, str], Outcome] = {}
    for row in rows:
        cells.setdefault((row.student, row.outcome.exercise), row.outcome)
    return students, columns, cells


def write_html(rows: list[Row], path: Path) -> None:
    students, columns, cells = pivot(rows)
    head = "".join(f"<th>{'whole notebook' if c == '*' else html.escape(c)}</th>" for c in columns)
    exercises = [c for c in columns if c != "*"]
    body = []
    for student in students:
        tds = []
        for column in columns:
            outcome = cells.get((student, column))
            tds.append("<td></td>" if outcome is None else
                       f'<td title="{html.escape(outcome.message)}">{SYMBOLS[outcome.status]} '
                       f'{html.escape(outcome.status)}</td>')
        mine = [cells[(student, c)] for c in exercises if (student, c) in cells]
        passed = sum(outcome.status == "passed" for outcome in mine)
        body.append(f"<tr><th>{html.escape(student)}</th>{''.join(tds)}<td>{passed}/{len(mine)}</td></tr>")
    path.write_text(
        "<!doctype html><meta charset='utf-8'><title>Grades</title>"
        "<style>body{font-family:sans-serif}table{border-collapse:collapse}th,td{border:1px solid #999;"
        "padding:4px 8px;text-align:left}</style><h1>Exercise results</h1>"
        f"<table><tr><th>student</th>{head}<th>passed</th></tr>{''.join(body)}</table>"
        "<p>Hover a cell for the check's message.</p>",
        encoding="utf-8",
    )
