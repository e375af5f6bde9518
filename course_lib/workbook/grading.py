"""`course grade DIR`: check every student notebook in a folder and tabulate, with grades no submission can forge.

Each notebook is checked by `runner.check` against the course's own setup and check cells (`root`: the
instructor's course folder, with solutions/): its kernel is confined, and the checkers run in a grader
worker process, never in the kernel. `jobs` workers grade side by side; a worker serves one notebook at a
time and is replaced when a notebook outlives its time limit or the worker stops, so a notebook that hangs
or crashes costs only its own row. Results go to grades.csv and grades.html.
"""

from __future__ import annotations

import csv
import datetime
import html
import multiprocessing
import os
import queue
import re
import signal
import threading
from dataclasses import dataclass
from pathlib import Path

from course_lib.workbook.ids import ExerciseId
from course_lib.workbook.outcomes import MEANINGS, SYMBOLS, Outcome, for_grader

WHOLE = "*"
"""The exercise column of an outcome about a whole notebook (unreadable, out of time)."""


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


def _check_one(path: Path, root: Path | None, cell_timeout: int) -> tuple[str, object]:
    """In a worker: one notebook's outcomes, or the one-line reason it could not be checked."""
    from course_lib.errors import CourseError
    from course_lib.workbook import build, runner

    try:
        notebook = build.read(path)
        stem = runner.lesson_stem(path, notebook)
        reference = runner.reference_for(stem, root) if stem else None
        if root is not None and reference is None:
            return "unreadable", (f"{path.name} is not an exercise notebook of this course "
                                  "(expected a name like 01_bad_tool_rewrite.ipynb)")
        return "ok", runner.check(path, timeout=cell_timeout, reference=reference, budget=cell_timeout)
    except CourseError as error:
        return "unreadable", str(error)
    except Exception as error:  # anything else still becomes this notebook's row
        return "unreadable", f"{type(error).__name__}: {error}"


def _serve(connection, root: str | None, cell_timeout: int) -> None:
    """A worker process: grade each notebook path it is sent until it is sent None."""
    if hasattr(os, "setsid"):
        os.setsid()  # its own process group: stopping the worker stops whatever it started
    from course_lib.lazy_imports import defer_iri_grammar

    defer_iri_grammar()  # before nbformat imports jsonschema
    import course_lib.checks  # noqa: F401 - imported once per worker, not once per notebook

    while True:
        path = connection.recv()
        if path is None:
            return
        connection.send(_check_one(Path(path), Path(root) if root else None, cell_timeout))


class _Worker:
    """One grader worker process and the pipe to it."""

    def __init__(self, root: Path | None, cell_timeout: int):
        context = multiprocessing.get_context("spawn")
        self.connection, theirs = context.Pipe()
        self.process = context.Process(target=_serve, args=(theirs, str(root) if root else None, cell_timeout),
                                       daemon=True)
        self.process.start()
        theirs.close()

    def grade(self, path: Path, timeout: float) -> tuple[str, object]:
        """The worker's answer for one notebook; on a hang or a crash the worker is stopped and says why."""
        try:
            self.connection.send(str(path))
            if self.connection.poll(timeout):
                return self.connection.recv()
            self.stop()
            return "timeout", f"no result within {timeout:g} s"
        except (EOFError, OSError):
            self.stop()
            return "unreadable", "the grading worker stopped without a result"

    @property
    def alive(self) -> bool:
        return self.process.is_alive()

    def stop(self) -> None:
        if self.process.is_alive():
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError, AttributeError):
                self.process.kill()
        self.process.join(10)
        self.connection.close()

    def close(self) -> None:
        try:
            self.connection.send(None)
            self.process.join(10)
        except (OSError, EOFError):
            pass
        self.stop()


def _rows(student: str, path: Path, answer: tuple[str, object]) -> list[Row]:
    kind, payload = answer
    if kind == "ok":
        return [Row(student, path.name, outcome) for outcome in payload]
    return [Row(student, path.name, Outcome(WHOLE, kind, str(payload).removeprefix("course: ")))]


def _cell_limit(timeout: int) -> int:
    """Seconds per cell and per check for a notebook allowed `timeout`: a little less, so that the notebook's own
    row says which cell ran out; for a very short limit the same (then the whole notebook's row does)."""
    return timeout - 5 if timeout > 10 else timeout


def grade_one(student: str, path: Path, timeout: int, root: Path | None = None) -> list[Row]:
    """Check one notebook in a worker process of its own; a hang or a broken file becomes a row, not a crash."""
    worker = _Worker(root, _cell_limit(timeout))
    try:
        return _rows(student, path, worker.grade(path, timeout))
    finally:
        worker.close()


def grade(folder: Path, timeout: int = 120, jobs: int = 2, root: Path | None = None) -> list[Row]:
    """Rows for every submission in `folder`, in a stable order; `timeout` seconds per notebook."""
    pairs = submissions(folder)
    todo: queue.Queue = queue.Queue()
    for index, pair in enumerate(pairs):
        todo.put((index, *pair))
    found: list[list[Row]] = [[] for _ in pairs]

    def work() -> None:
        worker = None
        while True:
            try:
                index, student, path = todo.get_nowait()
            except queue.Empty:
                break
            if worker is None or not worker.alive:
                worker = _Worker(root, _cell_limit(timeout))
            found[index] = _rows(student, path, worker.grade(path, timeout))
        if worker is not None:
            worker.close()

    threads = [threading.Thread(target=work) for _ in range(max(1, min(jobs, len(pairs))))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [row for rows in found for row in rows]


# --- reports ---------------------------------------------------------------------------------------


def write_csv(rows: list[Row], path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["student", "notebook", "exercise", "status", "detail"])
        writer.writerows([r.student, r.notebook, r.outcome.exercise, r.outcome.status,
                          for_grader(r.outcome.message)] for r in rows)


def _column_key(exercise: str) -> tuple:
    return (1,) if exercise == WHOLE else (0, ExerciseId.parse(exercise))


def pivot(rows: list[Row]) -> tuple[list[str], list[str], dict[tuple[str, str], Outcome]]:
    """Students, exercise columns (ids such as 1.2; `*` for a whole notebook) and the outcome at each crossing."""
    students = sorted({r.student for r in rows})
    columns = sorted({r.outcome.exercise for r in rows}, key=_column_key)
    cells: dict[tuple[str, str], Outcome] = {}
    for row in rows:
        cells.setdefault((row.student, row.outcome.exercise), row.outcome)
    return students, columns, cells


def lessons_of(rows: list[Row]) -> dict[str, list[str]]:
    """Each graded lesson notebook (by file name) and its exercises, as the course lists them."""
    from course_lib.workbook import manifest, runner

    found: dict[str, list[str]] = {}
    for row in rows:
        stem = runner.lesson_stem(Path(row.notebook))
        if stem and stem not in found:
            found[stem] = [str(e) for e in manifest.lesson(stem[:2]).exercises]
    return found


def scores(rows: list[Row]) -> dict[str, tuple[int, int]]:
    """Per student: exercises passed, out of every exercise of the lessons they handed in (a notebook that
    could not be read or run still counts all its exercises)."""
    from course_lib.workbook import manifest, runner

    passed: dict[str, set[str]] = {}
    owed: dict[str, set[str]] = {}
    for row in rows:
        passed.setdefault(row.student, set())
        owed.setdefault(row.student, set())
        stem = runner.lesson_stem(Path(row.notebook))
        if stem:
            owed[row.student] |= {str(e) for e in manifest.lesson(stem[:2]).exercises}
        if row.outcome.exercise != WHOLE:
            owed[row.student].add(row.outcome.exercise)
            if row.outcome.status == "passed":
                passed[row.student].add(row.outcome.exercise)
    return {student: (len(passed[student]), len(owed[student])) for student in passed}


def legend_lines() -> list[str]:
    """One line per status, and what the table's marks mean."""
    return ([f"{SYMBOLS[status]} {status}: {meaning}" for status, meaning in MEANINGS.items()]
            + [f"{WHOLE} column: a problem with the whole notebook (it could not be read, or ran out of time)",
               "· no result: that student handed in no notebook with this exercise"])


CODES = {"passed": "pass", "not done": "todo", "failed": "fail", "edited": "edit", "skipped": "skip",
         "timeout": "time", "kernel died": "died", "unreadable": "unread"}
"""Each status as a short code for the class table of grades.html (the legend spells them out)."""


def _detail(outcome: Outcome) -> str:
    """A reason as HTML for a grader: escaped, `code` as code, without the steps a learner is told to take."""
    text = html.escape(for_grader(outcome.message))
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", text)


def _anchor(student: str) -> str:
    return "student-" + re.sub(r"[^A-Za-z0-9_-]", "-", student)


def write_html(rows: list[Row], path: Path, sandbox_note: str = "", when: datetime.date | None = None) -> None:
    """The class table (short status codes, per-exercise totals and pass rates), its legend, then one section per
    student with every reason in full."""
    from course_lib.workbook import manifest

    students, columns, cells = pivot(rows)
    points = scores(rows)
    lessons = lessons_of(rows)
    titles = ", ".join(f"lesson {stem[:2]} ({manifest.lesson(stem[:2]).title})" for stem in lessons) or "no lesson"
    day = (when or datetime.date.today()).isoformat()
    head = "".join(f"<th>{'whole notebook' if c == WHOLE else html.escape(c)}</th>" for c in columns)
    body, details = [], []
    for student in students:
        tds, lines = [], []
        for column in columns:
            outcome = cells.get((student, column))
            if outcome is None:
                tds.append('<td class="none">·</td>')
                continue
            status = html.escape(outcome.status.replace(" ", "-"))
            tds.append(f'<td class="{status}"><a href="#{_anchor(student)}">{SYMBOLS[outcome.status]} '
                       f"{CODES[outcome.status]}</a></td>")
            lines.append(f'<tr><td>{"whole notebook" if column == WHOLE else html.escape(column)}</td>'
                         f'<td class="{status}">{SYMBOLS[outcome.status]} {html.escape(outcome.status)}</td>'
                         f"<td><small>{_detail(outcome)}</small></td></tr>")
        passed, total = points.get(student, (0, 0))
        body.append(f'<tr><th><a href="#{_anchor(student)}">{html.escape(student)}</a></th>{"".join(tds)}'
                    f"<td class='score'>{passed}/{total}</td></tr>")
        details.append(f'<section id="{_anchor(student)}"><h3>{html.escape(student)}: {passed}/{total} passed</h3>'
                       f"<table><tr><th>exercise</th><th>status</th><th>reason</th></tr>{''.join(lines)}</table>"
                       "</section>")
    totals = []
    for column in columns:
        graded = [cells[(student, column)] for student in students if (student, column) in cells]
        if column == WHOLE:
            totals.append(f"<td>{len(graded)} problem{'' if len(graded) == 1 else 's'}</td>")
            continue
        done = sum(outcome.status == "passed" for outcome in graded)
        rate = f"{100 * done / len(graded):.0f}%" if graded else "–"
        totals.append(f"<td class='total'>{done}/{len(graded)} ({rate})</td>")
    legend = "".join(f"<li>{SYMBOLS[status]} <b>{CODES[status]}</b> ({html.escape(status)}): {html.escape(meaning)}"
                     "</li>" for status, meaning in MEANINGS.items())
    legend += "".join(f"<li>{html.escape(line)}</li>" for line in legend_lines()[len(MEANINGS):])
    note = f"<p class='sandbox'>{html.escape(sandbox_note)}</p>" if sandbox_note else ""
    path.write_text(
        "<!doctype html><meta charset='utf-8'><title>Grades</title>"
        "<style>body{font-family:sans-serif;margin:1em;max-width:80em}table{border-collapse:collapse;margin:.5em 0}"
        "th,td{border:1px solid #999;padding:4px 8px;text-align:left;vertical-align:top}a{color:inherit}"
        "td small{display:block;max-width:60em;color:#333}td.passed{background:#e8f6e8}"
        "td.failed,td.edited,td.kernel-died,td.unreadable,td.timeout{background:#fbeaea}"
        "td.not-done,td.skipped{background:#fff8e1}td.none{color:#999;text-align:center}"
        "tr.totals td{font-weight:bold;background:#f3f3f3}</style>"
        f"<h1>Exercise results: {html.escape(titles)}, graded {day}</h1>{note}"
        f"<table><tr><th>student</th>{head}<th>passed</th></tr>{''.join(body)}"
        f"<tr class='totals'><td>class: passed (rate)</td>{''.join(totals)}<td></td></tr></table>"
        f"<h2>Legend</h2><ul>{legend}</ul>"
        "<p>passed: exercises passed, out of every exercise of the lesson notebooks the student handed in. "
        "class: how many of the students with a result for an exercise passed it. A student's name or mark opens "
        "their reasons below.</p>"
        f"<h2>Each student</h2>{''.join(details)}",
        encoding="utf-8",
    )


def gradescope_results(rows: list[Row], seconds: float, sandbox_note: str) -> dict:
    """Gradescope's results.json for one student's rows: one test per exercise of the lessons handed in (1 point
    each), the whole-notebook problems and the sandbox in the top-level output."""
    tests, problems = [], []
    owed = {exercise for exercises in lessons_of(rows).values() for exercise in exercises}
    seen = set()
    for row in rows:
        outcome = row.outcome
        if outcome.exercise == WHOLE:
            problems.append(f"{row.notebook}: {outcome.status}: {outcome.message}")
            continue
        if outcome.exercise in seen:
            continue
        seen.add(outcome.exercise)
        passed = outcome.status == "passed"
        tests.append({"name": f"Exercise {outcome.exercise} ({row.notebook})", "number": outcome.exercise,
                      "score": 1.0 if passed else 0.0, "max_score": 1.0, "status": "passed" if passed else "failed",
                      "output": f"{SYMBOLS[outcome.status]} {outcome.status}: {outcome.message}",
                      "visibility": "visible"})
    for exercise in sorted(owed - seen, key=ExerciseId.parse):  # a notebook that could not run owes its exercises
        notebook = next((f"{stem}.ipynb" for stem, found in lessons_of(rows).items() if exercise in found), "")
        tests.append({"name": f"Exercise {exercise} ({notebook})", "number": exercise, "score": 0.0,
                      "max_score": 1.0, "status": "failed", "output": "not checked: see the notebook's problem above",
                      "visibility": "visible"})
    tests.sort(key=lambda test: ExerciseId.parse(test["number"]))
    found = "\n".join(problems) if problems else ""
    if not rows:
        found = "No notebook was handed in: upload your exercise notebook (for example 01_bad_tool_rewrite.ipynb)."
    known = list(lessons_of(rows))
    summary = f"{sum(t['score'] for t in tests):g} of {len(tests)} exercises passed" + (
        f" in {', '.join(known)}" if known else "")
    return {"score": sum(test["score"] for test in tests), "execution_time": round(seconds),
            "output": "\n".join(part for part in (summary, found, sandbox_note) if part), "visibility": "visible",
            "stdout_visibility": "hidden", "tests": tests}
