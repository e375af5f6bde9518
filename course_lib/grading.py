"""`course grade DIR`: check every student notebook in a folder, in isolation, and tabulate.

Each notebook runs in its own `course check --json` process with a time limit, two at a time, so a
notebook that hangs or crashes costs only its own row. Results go to grades.csv and grades.html.
"""

from __future__ import annotations

import csv
import html
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

SYMBOLS = {"passed": "✅", "not done": "⏳", "failed": "❌", "skipped": "⚠️", "timeout": "⌛", "unreadable": "🚫"}


@dataclass(frozen=True)
class Row:
    """One exercise of one student's notebook."""

    student: str
    notebook: str
    exercise: str
    status: str
    detail: str


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


def grade_one(student: str, path: Path, timeout: int) -> list[Row]:
    """Check one notebook in a separate process; a hang or a broken file becomes a row, not a crash."""
    command = [sys.executable, "-m", "course_lib.cli", "check", str(path), "--json"]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return [Row(student, path.name, "*", "timeout", f"no result within {timeout} s")]
    try:
        outcomes = json.loads(done.stdout)
    except json.JSONDecodeError:
        reason = (done.stderr.strip().splitlines() or ["no output"])[-1].removeprefix("course: ")
        return [Row(student, path.name, "*", "unreadable", reason)]
    return [Row(student, path.name, o["exercise"], o["status"], o["detail"]) for o in outcomes]


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
        writer.writerows([r.student, r.notebook, r.exercise, r.status, r.detail] for r in rows)


def _column_key(exercise: str) -> tuple:
    return (1,) if exercise == "*" else (0, *map(int, exercise.split(".")))


def pivot(rows: list[Row]) -> tuple[list[str], list[str], dict[tuple[str, str], Row]]:
    """Students, exercise columns (ids such as 1.2; `*` for a whole notebook) and the row at each crossing."""
    students = sorted({r.student for r in rows})
    columns = sorted({r.exercise for r in rows}, key=_column_key)
    cells: dict[tuple[str, str], Row] = {}
    for row in rows:
        cells.setdefault((row.student, row.exercise), row)
    return students, columns, cells


def write_html(rows: list[Row], path: Path) -> None:
    students, columns, cells = pivot(rows)
    head = "".join(f"<th>{'whole notebook' if c == '*' else html.escape(c)}</th>" for c in columns)
    exercises = [c for c in columns if c != "*"]
    body = []
    for student in students:
        tds = []
        for column in columns:
            row = cells.get((student, column))
            tds.append("<td></td>" if row is None else
                       f'<td title="{html.escape(row.detail)}">{SYMBOLS[row.status]} {html.escape(row.status)}</td>')
        mine = [cells[(student, c)] for c in exercises if (student, c) in cells]
        passed = sum(row.status == "passed" for row in mine)
        body.append(f"<tr><th>{html.escape(student)}</th>{''.join(tds)}<td>{passed}/{len(mine)}</td></tr>")
    path.write_text(
        "<!doctype html><meta charset='utf-8'><title>Grades</title>"
        "<style>body{font-family:sans-serif}table{border-collapse:collapse}th,td{border:1px solid #999;"
        "padding:4px 8px;text-align:left}</style><h1>Exercise results</h1>"
        f"<table><tr><th>student</th>{head}<th>passed</th></tr>{''.join(body)}</table>"
        "<p>Hover a cell for the check's message.</p>",
        encoding="utf-8",
    )
