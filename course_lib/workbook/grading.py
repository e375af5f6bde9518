"""`course grade DIR`: check every student notebook in a folder and tabulate, with grades no submission can forge.

Each notebook is checked by `runner.check` against the course's own setup and check cells (`root`: the
instructor's course folder, with solutions/): its kernel is confined, and the checkers run in a grader
worker process, never in the kernel. `jobs` workers grade side by side; a worker serves one notebook at a
time and is replaced when a notebook outlives its time limit, leaves anything running in it (`_left_running`)
or the worker stops, so a notebook that hangs, crashes or floods costs only its own row; a stopped worker is
never used again. Results go to grades.csv and grades.html.

Every submission is hostile data: the folder is walked without following links, a notebook is read only when it
is a regular file (`build.read_submission`), rows name files as handed in, never where the grader keeps them.
One notebook per lesson per student is graded, all of a student's notebooks within one time budget, and each
notebook's run folder is made and removed here (`sandbox.run_folder`, `sandbox.clean_up`), whatever its worker did.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime
import html
import multiprocessing
import os
import queue
import re
import signal
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from course_lib.workbook.ids import ExerciseId
from course_lib.workbook.outcomes import MEANINGS, SYMBOLS, Outcome, for_grader, one_line, printable, unmarked

WHOLE = "*"
"""The exercise column of an outcome about a whole notebook (unreadable, out of time)."""


NAME_CHARACTERS = 120
"""The most characters of a student's or a file's name a report shows."""
DETAIL_CHARACTERS = 1200
"""The most characters of an outcome's message a report shows (a learner's exception message inside it is cut at
`boundary`'s 500 already): a file name or a message is the submission's text, shown escaped (`printable`)."""


@dataclass(frozen=True)
class Row:
    """One exercise of one student's notebook, every text of it as reports may show it (`printable`)."""

    student: str
    notebook: str
    outcome: Outcome

    def __post_init__(self) -> None:
        object.__setattr__(self, "student", printable(self.student, NAME_CHARACTERS))
        object.__setattr__(self, "notebook", printable(self.notebook, NAME_CHARACTERS))
        object.__setattr__(self, "outcome", dataclasses.replace(
            self.outcome, message=printable(shortened(unmarked(one_line(self.outcome.message))), DETAIL_CHARACTERS)))


ITEM = " • "
"""What separates the broken rules of a one-line message (`one_line`)."""


def shortened(message: str, limit: int = DETAIL_CHARACTERS) -> str:
    """`message` within about `limit` characters, cut item by item: each broken rule (after `ITEM`) keeps what it
    expected, and only the evidence it found is cut, so that every item stays readable, the last one too."""
    parts = message.split(ITEM)
    if len(message) <= limit or len(parts) == 1:
        return message
    room, allowed = limit - len(ITEM) * (len(parts) - 1), {}
    for left, index in enumerate(sorted(range(len(parts)), key=lambda k: len(parts[k]))):
        allowed[index] = min(len(parts[index]), room // (len(parts) - left))  # a short item leaves its share
        room -= allowed[index]
    cut = []
    for index, part in enumerate(parts):
        said, found, evidence = part.partition("; found ")
        budget = allowed[index]
        if len(part) > budget and found:
            keep = max(budget - len(said) - len(found), 60)
            part = said + found + (evidence if len(evidence) <= keep else evidence[:keep - 1] + "…")
        elif len(part) > budget:
            part = part[:budget - 1] + "…"
        cut.append(part)
    return ITEM.join(cut)


@dataclass
class Report:
    """What a grading run says besides its rows: notebooks it ignored, and the most memory a grader worker used."""

    ignored: list[str] = field(default_factory=list)
    worker_peak_bytes: int = 0
    students: list[str] = field(default_factory=list)
    """Every student found in the class folder, whether or not a notebook of theirs was graded."""
    misnamed: list[tuple[str, str]] = field(default_factory=list)
    """(student, file name) of each notebook in a student's folder whose name names no lesson (not graded)."""
    workers: int = 0
    """Grader worker processes started (one per `jobs`, and one more each time a worker was stopped or discarded)."""


def submissions(folder: Path, ignored: list[str] | None = None) -> list[tuple[str, Path]]:
    """(student, notebook) pairs. A class folder is either one folder per student (`DIR/<student>/NN_x.ipynb`, any
    depth inside it) or flat (`DIR/<student>.ipynb`), never both: once it holds a student folder, a file or folder
    named .ipynb beside them is no student's and is ignored (with a line in `ignored`), so nobody's file ever lands
    in another student's row.

    The folder is walked without following a link and without recursion. A symbolic link (to a file or a
    folder) and anything named .ipynb that is not a regular file are listed too, so that their row says they
    were refused (`build.read_submission` refuses them); nothing a link points to is ever read.
    """
    try:
        top = sorted(os.scandir(folder), key=lambda entry: entry.name)
    except OSError:
        return []
    top = [entry for entry in top if entry.name != ".ipynb_checkpoints"]
    notebook = [entry for entry in top if entry.name.endswith(".ipynb")]
    students = [entry for entry in top if not entry.name.endswith(".ipynb")
                and (entry.is_symlink() or entry.is_dir(follow_symlinks=False))]
    if not students:
        return [(Path(entry.name).stem, Path(entry.path)) for entry in notebook]
    for entry in notebook:
        if ignored is not None:
            ignored.append(f"ignored {printable(entry.name, NAME_CHARACTERS)}: this class folder has one folder per student, and a notebook "
                           "beside them is no student's (put it in its student's folder)")
    pairs = []
    for student in students:
        if student.is_symlink():  # listed so that its row says it was refused
            pairs.append((student.name, Path(student.path)))
            continue
        pairs += [(student.name, path) for path in notebooks_in(Path(student.path))]
    return pairs


def notebooks_in(folder: Path) -> list[Path]:
    """Every notebook under `folder`, at any depth but in no hidden folder (and any link or non-file named .ipynb,
    listed so that its row says it was refused), walked without following a link and without recursion; sorted."""
    found, stack = [], [folder]
    while stack:
        try:
            entries = list(os.scandir(stack.pop()))
        except OSError:
            continue
        for entry in entries:
            link = entry.is_symlink()
            if entry.name.startswith(".") and not link and entry.is_dir(follow_symlinks=False):
                continue  # .ipynb_checkpoints, .git, a release's .course/reference: nobody's work
            if not link and entry.is_dir(follow_symlinks=False) and not entry.name.endswith(".ipynb"):
                stack.append(Path(entry.path))
            elif entry.name.endswith(".ipynb") or (link and os.path.isdir(entry.path)):
                found.append(Path(entry.path))
    return sorted(found)


def _check_one(path: Path, shown: str, root: Path | None, cell_timeout: int, run_dir: Path,
               uid: int | None, package: Path | None = None) -> tuple[str, object]:
    """In a worker: one notebook's outcomes, or the one-line reason it could not be checked (which names the
    file as the student handed it in, never where the grader keeps it, and quotes nothing of it)."""
    from course_lib.errors import CourseError
    from course_lib.workbook import build, runner

    try:
        notebook = build.read_submission(path, shown)
        stem = runner.lesson_stem(path, notebook)
        reference = runner.reference_for(stem, root) if stem else None
        if root is not None and reference is None:
            return "unreadable", (f"{shown} is not an exercise notebook of this course "
                                  "(expected a name like 01_bad_tool_rewrite.ipynb)")
        if stem and not _has_lesson_cells(notebook.cells, stem):
            return "ok", _nothing_handed_in(notebook, stem, shown)
        return "ok", runner.check(path, timeout=cell_timeout, reference=reference, budget=cell_timeout,
                                  submission=notebook, run_dir=run_dir, uid=uid, package=package)
    except CourseError as error:
        return "unreadable", str(error)
    except Exception as error:  # anything else still becomes this notebook's row, without its text
        return "unreadable", f"{shown} could not be checked ({type(error).__name__})"


def _die_with_parent() -> None:
    """Linux: this process gets SIGKILL when the grader that started it dies (killed or not)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _serve(connection, root: str | None, cell_timeout: int, package: str | None = None) -> None:
    """A worker process: grade each notebook it is sent until it is sent None."""
    if hasattr(os, "setsid"):
        os.setsid()  # its own process group: stopping the worker stops whatever it started
    _die_with_parent()
    from course_lib.lazy_imports import defer_iri_grammar

    defer_iri_grammar()  # before nbformat imports jsonschema
    import resource

    import course_lib.checks  # noqa: F401 - imported once per worker, not once per notebook
    from course_lib.workbook import runner

    runner.course_tools()  # the lesson servers' tools, listed once per worker, outside any notebook's time

    while True:
        job = connection.recv()
        if job is None:
            return
        path, shown, run_dir, uid = job
        answer = _check_one(Path(path), shown, Path(root) if root else None, cell_timeout, Path(run_dir), uid,
                            Path(package) if package else None)
        connection.send((*answer, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, _left_running()))


LEFTOVER_SECONDS = 2.0
"""How long a worker waits, once a notebook is done, for what that notebook's kernel asked of it to end."""


def _left_running() -> bool:
    """In a worker, once a notebook is done: whether something it started still runs here (a request of its kernel
    still handled, `boundary.leftovers`, or a check that outlived its time), so that the worker must not grade
    another notebook: no thread can be stopped, and a call left running would share the next one's time, memory
    and watches."""
    from course_lib.workbook import boundary

    deadline = time.monotonic() + LEFTOVER_SECONDS
    while boundary.leftovers() or any(thread.name.startswith("course-check-") for thread in threading.enumerate()):
        if time.monotonic() > deadline:
            return True
        time.sleep(0.05)
    return False


def _peak_of(pid: int | None) -> int:
    """The most resident memory process `pid` has used so far (Linux: VmHWM), 0 when unknown."""
    try:
        with open(f"/proc/{pid}/status", "rb") as file:
            for line in file:
                if line.startswith(b"VmHWM:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


class _Worker:
    """One grader worker process and the pipe to it; once stopped it is never used again."""

    def __init__(self, root: Path | None, cell_timeout: int, package: Path | None = None):
        context = multiprocessing.get_context("spawn")
        self.connection, theirs = context.Pipe()
        self.process = context.Process(target=_serve, args=(theirs, str(root) if root else None, cell_timeout,
                                                            str(package) if package else None), daemon=True)
        self.process.start()
        theirs.close()
        self.stopped = False
        self.peak_bytes = 0

    def grade(self, path: Path, shown: str, timeout: float) -> tuple[str, object]:
        """The worker's answer for one notebook; on a hang or a crash the worker is stopped and says why. The
        notebook's run folder is made here and removed here, with whatever its kernel left, whatever happened."""
        from course_lib.workbook import sandbox

        uid = sandbox.new_uid()
        run_dir = sandbox.run_folder(uid)
        try:
            self.connection.send((str(path), shown, str(run_dir), uid))
            if self.connection.poll(timeout):
                kind, payload, peak, left_running = self.connection.recv()
                self.peak_bytes = max(self.peak_bytes, peak)
                if left_running:  # the next notebook gets a fresh worker, never this one's leftovers
                    self.stop()
                return kind, payload
            self.stop()
            return "timeout", f"no result within {timeout:g} s"
        except (EOFError, OSError, ValueError, TypeError):
            self.stop()
            return "unreadable", "the grading worker stopped without a result"
        finally:
            sandbox.clean_up(run_dir, uid)

    @property
    def alive(self) -> bool:
        return not self.stopped and self.process.is_alive()

    def stop(self) -> None:
        self.stopped = True
        self.peak_bytes = max(self.peak_bytes, _peak_of(self.process.pid))  # a killed worker's peak counts too
        if self.process.is_alive():
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError, AttributeError):
                self.process.kill()
        self.process.join(10)
        self.connection.close()

    def close(self) -> None:
        try:
            if not self.stopped:
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


def _cell_limit(timeout: float) -> int:
    """Seconds per cell and per check for a notebook allowed `timeout`: a little less, so that the notebook's own
    row says which cell ran out; for a very short limit the same (then the whole notebook's row does)."""
    return int(timeout - 5) if timeout > 10 else max(1, int(timeout))


def _shown(folder: Path, path: Path) -> str:
    """A submitted file as its row and messages name it: its path inside the class folder, never the grader's."""
    return printable(path.relative_to(folder).as_posix() if path.is_relative_to(folder) else path.name,
                     NAME_CHARACTERS)


def grade_one(student: str, path: Path, timeout: int, root: Path | None = None) -> list[Row]:
    """Check one notebook in a worker process of its own; a hang or a broken file becomes a row, not a crash."""
    worker = _Worker(root, _cell_limit(timeout))
    try:
        return _rows(student, path, worker.grade(path, path.name, timeout))
    finally:
        worker.close()


def _holds_exercises(path: Path, stem: str) -> bool:
    """Whether the notebook at `path` (read as data) has an exercise cell of lesson `stem` (a lesson's own notebook,
    such as notebooks/01_….ipynb in a handed-in repository, has none)."""
    from course_lib.errors import CourseError
    from course_lib.workbook import build

    try:
        cells = build.read_submission(path).cells
    except (CourseError, OSError, ValueError):
        return True  # its row will say why it cannot be graded
    return _has_lesson_cells(cells, stem)


def _has_lesson_cells(cells: list, stem: str) -> bool:
    """Whether `cells` hold an exercise cell (by its metadata id) of lesson `stem`."""
    from course_lib.workbook import runner

    return any(str(found).split(".")[0].zfill(2) == stem[:2]
               for found in map(runner._exercise_of, cells) if found is not None)


def _nothing_handed_in(notebook, stem: str, shown: str) -> list[Outcome]:
    """A notebook with none of its lesson's exercise cells (an empty one, for one), as "not handed in" for each of the
    lesson's exercises: 0 points, like every answer its checks would find missing, but no "edited" (walkthrough 5,
    M2: a blank notebook read as four edited check cells, with advice to put them back)."""
    from course_lib.workbook import manifest

    what = "is empty (no cells)" if not notebook.cells else "holds none of the lesson's exercise cells"
    return [Outcome(str(exercise), "not handed in", f"{shown} {what}: nothing handed in for exercise {exercise}")
            for exercise in manifest.lesson(stem[:2]).exercises]


def _script(character: str) -> str:
    """The script a letter belongs to, from its Unicode name ("LATIN", "CYRILLIC", "GREEK", …); "" for others."""
    import unicodedata

    return unicodedata.name(character, "").split(" ")[0] if character.isalpha() else ""


def lookalikes(students: list[str]) -> str:
    """One line naming the student names a reader could take for another: letters of more than one script
    ("honest_s\\u043elved", a Cyrillic о among Latin letters), a form Unicode's NFKC would change (full-width or
    ligature letters), or the same NFKC casefolded name as another; each shown with its non-ASCII characters
    escaped, so that the look-alikes read differently. "" when there are none."""
    import unicodedata

    folded: dict[str, list[str]] = {}
    for name in students:
        folded.setdefault(unicodedata.normalize("NFKC", name).casefold(), []).append(name)
    flagged = [name for name in students
               if len({_script(c) for c in name} - {""}) > 1 or unicodedata.normalize("NFKC", name) != name
               or len(folded[unicodedata.normalize("NFKC", name).casefold()]) > 1]
    if not flagged:
        return ""
    return ("student folder names that look alike (mixed scripts, or names Unicode treats as the same; non-ASCII "
            "letters escaped): " + ", ".join(printable(ascii(name)[1:-1], NAME_CHARACTERS) for name in flagged))


def _one_per_lesson(folder: Path, student: str, paths: list[Path], lessons: set[str] | None,
                    report: Report, tries: int = 1) -> tuple[list[list[Path]], list[Row]]:
    """The notebooks of one student to grade, as groups of one lesson's candidates (the group's best notebook
    counts, whole): the lesson is the one named in the FILE NAME, a notebook whose name names no lesson ignored with
    a line (its metadata cannot make it count); a flat class folder's `<student>.ipynb` as it is. Per lesson at
    most `tries` candidates, in this order: those with the lesson's exercise cells, the one named exactly after
    the lesson, the shallowest, by path; with `tries` 1 the others get a "skipped" row, else an ignored line, as
    does a notebook without the lesson's exercise cells (a lesson's own notebook) beside one with them. Only of
    `lessons` when given (the others ignored with a line)."""
    from course_lib.workbook import runner

    stems = {path: runner.lesson_stem(path) for path in paths}
    empty = {path for path, stem in stems.items() if stem is not None and tries > 1 and not _holds_exercises(path, stem)}

    def order(path: Path) -> tuple:
        return (path in empty, stems[path] != path.stem,
                len(path.relative_to(folder).parts) if path.is_relative_to(folder) else 0, _shown(folder, path))

    kept: dict[str, list[Path]] = {}
    unnamed, rows = [], []
    for path in sorted(paths, key=order):
        stem = runner.lesson_stem(path)
        flat = path.parent == folder
        if lessons is not None and not lessons:
            report.ignored.append(f"ignored {_shown(folder, path)}: this autograder names no lesson to grade (the "
                                  "instructor builds it with `course autograder gradescope --lesson NN`)")
        elif lessons is not None and (stem is None or stem[:2] not in lessons):
            report.ignored.append(f"ignored {_shown(folder, path)}: not a notebook of lesson "
                                  f"{', '.join(sorted(lessons))}, which this assignment grades")
        elif stem is None and flat:
            unnamed.append(path)
        elif stem is None:
            report.ignored.append(f"ignored {_shown(folder, path)}: its file name names no lesson (hand in one "
                                  "notebook per lesson, named like 01_bad_tool_rewrite.ipynb)")
            report.misnamed.append((student, path.name))
        elif path in empty and stem in kept:
            report.ignored.append(f"ignored {_shown(folder, path)}: it has none of lesson {stem[:2]}'s exercise cells")
        elif len(kept.get(stem, ())) >= tries and tries == 1:
            rows.append(Row(student, path.name, Outcome(
                WHOLE, "skipped", f"not graded: {kept[stem][0].name} is this student's notebook of lesson "
                                  f"{stem[:2]} (hand in one notebook per lesson)")))
        elif len(kept.get(stem, ())) >= tries:
            report.ignored.append(f"ignored {_shown(folder, path)}: {tries} other notebooks of lesson {stem[:2]} "
                                  "were graded (hand in one notebook per lesson)")
        else:
            kept.setdefault(stem, []).append(path)
    return [*kept.values(), *([path] for path in unnamed)], rows


def _passed(rows: list[Row]) -> int:
    return sum(row.outcome.status == "passed" for row in rows)


def grade(folder: Path, timeout: int = 120, jobs: int = 2, root: Path | None = None,
          lessons: set[str] | None = None, budget: float | None = None,
          report: Report | None = None, hints: int | None = -1, student: str | None = None,
          tries: int = 3) -> list[Row]:
    """Rows for every submission in `folder`, in a stable order; `timeout` seconds per notebook, and `budget`
    seconds (default twice `timeout`) for all the notebooks of one student together. With `lessons` (numbers such
    as "01") only notebooks of those lessons are graded; `report` collects what else the run has to say. The
    kernels get a copy of course_lib cut to what runs there, with `hints` hint levels per exercise
    (`runner.check`'s `kernel_copy`; None: the hints as installed, as in an autograder built with `--hints`).

    With `student` the whole folder is that one student's (a Gradescope submission: notebooks at any depth, a
    handed-in repository's exercises/ and notebooks/ included): of each lesson up to `tries` notebooks are graded
    (`_one_per_lesson`) and the one that passed the most counts, whole; the others are named in `report.ignored`."""
    from course_lib.workbook import sandbox

    report = report if report is not None else Report()
    budget = budget if budget is not None else 2 * timeout
    sandbox.sweep()
    by_student: dict[str, list[Path]] = {student: notebooks_in(folder)} if student is not None else {}
    for name, path in submissions(folder, report.ignored) if student is None else ():
        by_student.setdefault(name, []).append(path)
    report.students = sorted(by_student)
    if lookalikes(list(by_student)):
        report.ignored.append(lookalikes(list(by_student)))
    todo: queue.Queue = queue.Queue()
    for index, (name, paths) in enumerate(by_student.items()):
        todo.put((index, name, paths))
    found: list[list[Row]] = [[] for _ in by_student]
    lock = threading.Lock()
    package: Path | None = None

    def work() -> None:
        worker = None
        while True:
            try:
                index, name, paths = todo.get_nowait()
            except queue.Empty:
                break
            groups, rows = _one_per_lesson(folder, name, paths, lessons, report, tries if student else 1)
            deadline = time.monotonic() + budget
            for group in groups:
                graded: list[tuple[Path, list[Row]]] = []
                for path in group:
                    left = deadline - time.monotonic()
                    if left < 1 and graded:
                        report.ignored.append(f"ignored {_shown(folder, path)}: the time budget of {budget:g} s was "
                                              "used up")
                        continue
                    if left < 1:
                        graded.append((path, [Row(name, path.name, Outcome(
                            WHOLE, "timeout", f"not graded: this student's notebooks used up their time budget of "
                                              f"{budget:g} s"))]))
                        continue
                    if worker is None or not worker.alive:
                        worker = _Worker(root, _cell_limit(timeout), package)
                        with lock:
                            report.workers += 1
                    answer = worker.grade(path, _shown(folder, path), min(timeout, left))
                    graded.append((path, _rows(name, path, answer)))
                    with lock:
                        report.worker_peak_bytes = max(report.worker_peak_bytes, worker.peak_bytes)
                best = max(graded, key=lambda found: _passed(found[1]))  # the first of the best
                rows += best[1]
                for path, other in graded:
                    if path != best[0]:
                        report.ignored.append(f"graded {_shown(folder, path)} too ({_passed(other)} passed); "
                                              f"{_shown(folder, best[0])} counts ({_passed(best[1])} passed)")
            found[index] = rows
        if worker is not None:
            worker.close()

    from course_lib.workbook import runner

    with runner.kernel_package(hints) as package:
        threads = [threading.Thread(target=work) for _ in range(max(1, min(jobs, len(by_student))))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    return [row for rows in found for row in rows]


# --- reports ---------------------------------------------------------------------------------------


def _rename(name: str) -> str:
    """What to do with a notebook whose file name names no lesson: the name to give it when a lesson's file name
    stands inside it (an LMS's `cat_01_bad_tool_rewrite.ipynb`), else the pattern. Only a suggestion: the file
    counts once renamed, never by its content here."""
    from course_lib.workbook import manifest

    inside = sorted((lesson.stem for lesson in manifest.lessons() if lesson.exercises and lesson.stem in name),
                    key=len, reverse=True)
    to = (f"{inside[0]}.ipynb" if inside
          else "NN_<lesson>.ipynb, the lesson's number first (like 01_bad_tool_rewrite.ipynb)")
    return f"not graded: rename it to {to} and rerun the grading (its file name does not start with a lesson's number)"


def complete(rows: list[Row], report: Report, lessons: set[str] | None = None) -> list[Row]:
    """`rows` plus a row for every exercise a student has no result for, so that every student of `report` has one
    row per exercise of the assignment: the exercises of `lessons` when given, else of every lesson anyone in the
    class handed in. The added row is "skipped" when the student's notebook of that lesson could not be checked as
    a whole, else "not handed in"; both count 0. Plus a whole-notebook row for each misnamed notebook."""
    from course_lib.workbook import manifest, runner

    rows = [*rows, *(Row(student, name, Outcome(WHOLE, "misnamed", _rename(name)))
                     for student, name in report.misnamed)]

    numbers = {*(lessons or ()), *(stem[:2] for stem in lessons_of(rows))}
    numbers |= {ExerciseId.parse(row.outcome.exercise).lesson for row in rows if row.outcome.exercise != WHOLE}
    expected = {str(e): found.stem for found in {manifest.lesson(n) for n in numbers} for e in found.exercises}
    have = {(row.student, row.outcome.exercise) for row in rows}
    broken = {(row.student, runner.lesson_stem(Path(row.notebook))) for row in rows if row.outcome.exercise == WHOLE
              and row.outcome.status not in ("skipped", "misnamed")}
    added = []
    for student in sorted({*report.students, *(row.student for row in rows)}):
        for exercise, stem in sorted(expected.items(), key=lambda item: ExerciseId.parse(item[0])):
            if (student, exercise) in have:
                continue
            if (student, stem) in broken:
                added.append(Row(student, f"{stem}.ipynb", Outcome(
                    exercise, "skipped", f"not checked: this student's {stem}.ipynb could not be checked as a "
                                         "whole (see its whole-notebook row)")))
            else:
                added.append(Row(student, f"{stem}.ipynb", Outcome(
                    exercise, "not handed in", f"no notebook of lesson {stem[:2]} with exercise {exercise} was "
                                               "graded for this student")))
    return [*rows, *added]


def write_report(path: Path, text: str) -> None:
    """Write a report without following a link: a new file in the same folder, renamed over `path` (a grader run
    as root never writes through a symbolic link planted as grades.csv); an existing `path` that is not a regular
    file is refused in one line."""
    import stat
    import tempfile

    from course_lib.errors import UsageError

    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror or type(error).__name__}") from None
    if mode is not None and not stat.S_ISREG(mode):
        what = "a symbolic link" if stat.S_ISLNK(mode) else "not a regular file"
        raise UsageError(f"refusing to write {path}: it is {what} (remove it, or give --out another folder)")
    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}-", dir=path.parent)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as out:
            out.write(text)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def write_csv(rows: list[Row], path: Path) -> None:
    import io

    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["student", "notebook", "exercise", "status", "points", "detail"])
    writer.writerows([_inert(field) for field in (r.student, r.notebook, r.outcome.exercise, r.outcome.status,
                                                 _points(r.outcome), for_grader(r.outcome.message))] for r in rows)
    write_report(path, out.getvalue())


def class_totals(rows: list[Row]) -> dict[str, tuple[int, int]]:
    """Per column of `pivot`, in its order: (students who passed it, students in the class); for the whole-notebook
    column (students with a whole-notebook problem, students in the class). What grades.html's "class" row, the
    terminal's and grades_totals.csv show."""
    students, columns, cells = pivot(rows)
    found = {}
    for column in columns:
        graded = [cells[(student, column)] for student in students if (student, column) in cells]
        found[column] = (len(graded) if column == WHOLE else sum(o.status == "passed" for o in graded), len(students))
    return found


def rate(done: int, count: int) -> str:
    return f"{100 * done / count:.0f}%" if count else "–"


def write_totals_csv(rows: list[Row], path: Path) -> None:
    """Per exercise the class's totals, one row each (exercise, passed, students, pass rate in %): a file of its
    own, so that grades.csv stays one row per student and exercise for filters, pivots and sums."""
    import io

    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["exercise", "passed", "students", "pass_rate_percent"])
    writer.writerows([column, done, count, f"{100 * done / count:.0f}" if count else ""]
                     for column, (done, count) in class_totals(rows).items() if column != WHOLE)
    write_report(path, out.getvalue())


def _points(outcome: Outcome) -> str:
    """An exercise row's points for a spreadsheet sum (1 passed, else 0); none for a whole-notebook row."""
    return "" if outcome.exercise == WHOLE else str(int(outcome.status == "passed"))


_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _inert(text: str) -> str:
    """A CSV field no spreadsheet runs as a formula: one starting = + - @ (or tab, CR) gets a leading quote."""
    return f"'{text}" if text.startswith(_FORMULA_STARTS) else text


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
    """Per student: exercises passed, out of the same number for everyone: every exercise of every lesson handed
    in by anyone (a notebook that could not be read or run, or was not handed in, counts all its exercises)."""
    students, columns, cells = pivot(rows)  # exactly the outcomes the table shows, one per crossing
    owed = {exercise for exercises in lessons_of(rows).values() for exercise in exercises}
    owed |= {column for column in columns if column != WHOLE}
    passed = {student: sum(1 for (who, exercise), outcome in cells.items() if who == student
                           and exercise != WHOLE and outcome.status == "passed") for student in students}
    return {student: (passed[student], len(owed)) for student in students}


def legend_lines() -> list[str]:
    """One line per status, and what the table's marks mean."""
    return ([f"{SYMBOLS[status]} {status}: {meaning}" for status, meaning in MEANINGS.items()]
            + [f"{WHOLE} column: a problem with the whole notebook (it could not be read, or ran out of time)",
               "· no result: that student handed in no notebook with this exercise"])


CODES = {"passed": "pass", "not done": "todo", "failed": "fail", "edited": "edit", "skipped": "skip",
         "timeout": "time", "kernel died": "died", "unreadable": "unread",
         "not handed in": "none", "misnamed": "name"}
"""Each status as a short code for the class table of grades.html (the legend spells them out)."""


def _detail(outcome: Outcome) -> str:
    """A reason as HTML for a grader: escaped, `code` as code, without the steps a learner is told to take; several
    broken rules (a Row keeps them `one_line`, after " • ") as a list under their lead line."""
    lead, *rules = (re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(for_grader(part)))
                    for part in outcome.message.split(" • "))
    items = "".join(f"<li>{rule}</li>" for rule in rules)
    return lead + (f'<ul style="margin:2px 0;padding-left:1.4em">{items}</ul>' if rules else "")


def _anchor(student: str) -> str:
    return "student-" + re.sub(r"[^A-Za-z0-9_-]", "-", student)


def write_html(rows: list[Row], path: Path, sandbox_note: str = "", when: datetime.date | None = None,
               ignored: list[str] | None = None) -> None:
    """The class table (short status codes, per-exercise totals and pass rates over the whole class), its legend,
    the files not graded (`ignored`), then one section per student with every reason in full."""
    from course_lib.workbook import manifest

    students, columns, cells = pivot(rows)
    points = scores(rows)
    lessons = lessons_of(rows)
    titles = ", ".join(f"lesson {stem[:2]} ({manifest.lesson(stem[:2]).title})" for stem in lessons) or "no lesson"
    day = (when or datetime.date.today()).isoformat()
    head = "".join(f"<th>{'whole notebook' if c == WHOLE else html.escape(c)}</th>" for c in columns)
    body, details = [], []
    for student in students:
        tds = []
        for column in columns:
            outcome = cells.get((student, column))
            if outcome is None:
                tds.append('<td class="none">·</td>')
                continue
            status = html.escape(outcome.status.replace(" ", "-"))
            tds.append(f'<td class="{status}"><a href="#{_anchor(student)}">{SYMBOLS[outcome.status]} '
                       f"{CODES[outcome.status]}</a></td>")
        lines = []  # every row of the student, each whole-notebook one too (the table shows the first)
        for row in sorted((r for r in rows if r.student == student), key=lambda r: _column_key(r.outcome.exercise)):
            outcome, status = row.outcome, html.escape(row.outcome.status.replace(" ", "-"))
            shown = (f"whole notebook {html.escape(row.notebook)}" if outcome.exercise == WHOLE
                     else html.escape(outcome.exercise))
            lines.append(f'<tr><td>{shown}</td>'
                         f'<td class="{status} status">{SYMBOLS[outcome.status]} {html.escape(outcome.status)}</td>'
                         f"<td><small>{_detail(outcome)}</small></td></tr>")
        passed, total = points.get(student, (0, 0))
        body.append(f'<tr><th><a href="#{_anchor(student)}">{html.escape(student)}</a></th>{"".join(tds)}'
                    f"<td class='score'>{passed}/{total}</td></tr>")
        details.append(f'<section id="{_anchor(student)}"><h3>{html.escape(student)}: {passed}/{total} passed</h3>'
                       f"<table><tr><th>exercise</th><th>status</th><th>reason</th></tr>{''.join(lines)}</table>"
                       "</section>")
    totals = []
    for column, (done, count) in class_totals(rows).items():
        if column == WHOLE:
            totals.append(f"<td>{done} problem{'' if done == 1 else 's'}</td>")
        else:
            totals.append(f"<td class='total'>{done}/{count} ({rate(done, count)})</td>")
    legend = "".join(f"<li>{SYMBOLS[status]} <b>{CODES[status]}</b> ({html.escape(status)}): {html.escape(meaning)}"
                     "</li>" for status, meaning in MEANINGS.items())
    legend += "".join(f"<li>{html.escape(line)}</li>" for line in legend_lines()[len(MEANINGS):])
    note = f"<p class='sandbox'>{html.escape(sandbox_note)}</p>" if sandbox_note else ""
    ignored = [line for line in ignored or () if line != lookalikes(students)]  # that line is the note's
    skipped = ("<h2>Not graded</h2><ul>" + "".join(f"<li>{html.escape(line)}</li>" for line in ignored) + "</ul>"
               if ignored else "")
    if lookalikes(students):
        note += f"<p class='sandbox'>{html.escape(lookalikes(students))}</p>"
    write_report(
        path,
        "<!doctype html><meta charset='utf-8'><title>Grades</title>"
        "<style>body{font-family:sans-serif;margin:1em;max-width:80em}table{border-collapse:collapse;margin:.5em 0}"
        "th,td{border:1px solid #999;padding:4px 8px;text-align:left;vertical-align:top}a{color:inherit}"
        "td small{display:block;max-width:60em;color:#333}td.passed{background:#e8f6e8}"
        "td.failed,td.edited,td.kernel-died,td.unreadable,td.timeout,td.not-handed-in{background:#fbeaea}"
        "td.not-done,td.skipped,td.misnamed{background:#fff8e1}td.status{white-space:nowrap}"
        "td.none{color:#999;text-align:center}"
        "tr.totals td{font-weight:bold;background:#f3f3f3}</style>"
        f"<h1>Exercise results: {html.escape(titles)}, graded {day}</h1>{note}"
        f"<table><tr><th>student</th>{head}<th>passed</th></tr>{''.join(body)}"
        f"<tr class='totals'><td>class: passed (rate)</td>{''.join(totals)}<td></td></tr></table>"
        f"<h2>Legend</h2><ul>{legend}</ul>"
        f"<p>passed: exercises passed, out of the same {max((t for _, t in points.values()), default=0)} for every "
        "student: every exercise of the lessons graded (work not handed in counts 0). class: how many of the "
        f"{len(students)} students passed the exercise. A student's name or mark opens their reasons below.</p>"
        f"{skipped}<h2>Each student</h2>{''.join(details)}",
    )


def gradescope_results(rows: list[Row], seconds: float, sandbox_note: str, ignored: list[str] | None = None,
                       lessons: set[str] | None = None) -> dict:
    """Gradescope's results.json for one student's rows: one test per exercise of the lessons handed in and of
    `lessons` (those the autograder grades; 1 point each), the whole-notebook problems, the notebooks it
    ignored and the sandbox in the top-level output."""
    from course_lib.workbook import manifest

    tests, problems = [], []
    owed = {exercise for exercises in lessons_of(rows).values() for exercise in exercises}
    owed |= {str(exercise) for number in lessons or () for exercise in manifest.lesson(number).exercises}
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
        notebook = next((f"{stem}.ipynb" for stem, found in lessons_of(rows).items() if exercise in found),
                        f"lesson {exercise.split('.')[0].zfill(2)}")
        tests.append({"name": f"Exercise {exercise} ({notebook})", "number": exercise, "score": 0.0,
                      "max_score": 1.0, "status": "failed", "output": "not checked: see the notebook's problem above",
                      "visibility": "visible"})
    tests.sort(key=lambda test: ExerciseId.parse(test["number"]))
    ignored = [printable(line) for line in ignored or []]  # made escaped; again here, whoever made them
    found = "\n".join([*problems, *ignored])
    if not rows:
        found = "\n".join(["No notebook of this assignment was handed in: upload your exercise notebook (for "
                           "example 01_bad_tool_rewrite.ipynb).", *ignored])
    known = list(lessons_of(rows))
    summary = f"{sum(t['score'] for t in tests):g} of {len(tests)} exercises passed" + (
        f" in {', '.join(known)}" if known else "")
    return {"score": sum(test["score"] for test in tests), "execution_time": round(seconds),
            "output": "\n".join(part for part in (summary, found, sandbox_note) if part), "visibility": "visible",
            "stdout_visibility": "hidden", "tests": tests}
