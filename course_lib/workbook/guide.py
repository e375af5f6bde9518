"""`course guide`: the instructor guide, written from the manifest, the notebooks and the checkers' specifications.

A table of contents; schedules in full days and in half days that hold every lesson whole, in course order, with
the minutes of `lessons.toml`; a setup checklist; per lesson its objectives, key points, exercises (what each
check expects and the mistakes it catches, as lists), facilitation notes; then how to grade. Markdown, and HTML
made from it. Nothing here is written by hand per lesson: a new lesson appears as soon as the manifest lists it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from course_lib.workbook import build, manifest

BREAK_EVERY = 90
"""Minutes of work between two breaks in a schedule."""
BREAK, LUNCH = 15, 45
FORMATS = {"Full days": ("day", 390), "Half days": ("half day", 195)}
"""Workshop formats: (what one session is called, minutes of work per session): 6.5 h in a day, 3 h 15 in a
half day. Each format takes as many sessions as the whole course needs, so no lesson is left out."""
LUNCH_AFTER = {"day": 150, "half day": None}
"""Minutes into a session after which the next break is lunch (none in a half day)."""


@dataclass(frozen=True)
class Slot:
    """One line of a schedule: start and end as minutes after the session's start, and what happens."""

    start: int
    end: int
    what: str


def _clock(minutes: int, day_start: int = 9 * 60) -> str:
    total = day_start + minutes
    return f"{total // 60:02d}:{total % 60:02d}"


def _length(lesson: manifest.Lesson) -> int:
    return lesson.teaching + lesson.exercise_minutes


def fit(lessons: list[manifest.Lesson], capacity: int) -> list[list[manifest.Lesson]]:
    """Lessons in course order, whole, into as many sessions of at most `capacity` minutes of work as they need."""
    too_long = [lesson.number for lesson in lessons if _length(lesson) > capacity]
    if too_long:
        raise ValueError(f"lesson {', '.join(too_long)} is longer than a {capacity}-minute session")
    sessions: list[list[manifest.Lesson]] = [[]]
    used = 0
    for lesson in lessons:
        if used + _length(lesson) > capacity:
            sessions.append([])
            used = 0
        sessions[-1].append(lesson)
        used += _length(lesson)
    return sessions


def timetable(lessons: list[manifest.Lesson], lunch_after: int | None = None) -> list[Slot]:
    """One session: teaching and exercises of each lesson, a break every ~90 min, lunch at the first break after
    `lunch_after` minutes."""
    slots, clock, since_break = [], 0, 0
    for lesson in lessons:
        for part, minutes in (("teaching", lesson.teaching), ("exercises", lesson.exercise_minutes)):
            if since_break >= BREAK_EVERY:
                lunch = lunch_after is not None and clock >= lunch_after
                pause = LUNCH if lunch else BREAK
                slots.append(Slot(clock, clock + pause, "lunch" if lunch else "break"))
                lunch_after = None if lunch else lunch_after
                clock, since_break = clock + pause, 0
            slots.append(Slot(clock, clock + minutes, f"{lesson.number} {lesson.title}: {part}"))
            clock, since_break = clock + minutes, since_break + minutes
    return slots


def _exercise_titles(lesson: manifest.Lesson, root: Path) -> dict[str, str]:
    """Exercise id -> its heading in the solution notebook ("Make add_incident_note idempotent (rewrite · ...)")."""
    path = lesson.notebook(root, "solutions")
    titles = {}
    if path.is_file():
        for cell in build.read(path).cells:
            first = cell.source.splitlines()[0] if cell.cell_type == "markdown" and cell.source else ""
            if first.startswith("## Exercise "):
                number, _, title = first.removeprefix("## Exercise ").partition(" · ")
                titles[number] = title
    return titles


def _kept_mistakes(exercise, root: Path) -> list[str]:
    """The one-line summaries of the kept wrong answers to an exercise (real mistakes the checks catch)."""
    found = []
    for path in sorted((root / manifest.ANSWERS / "wrong").glob(f"{exercise.checker_name}_*.py")):
        docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        if docstring:
            found.append(docstring.splitlines()[0].rstrip("."))
    return found


def _lesson_section(lesson: manifest.Lesson, root: Path) -> list[str]:
    from course_lib import checks

    notebook = build.read(lesson.notebook(root)) if lesson.notebook(root).is_file() else None
    meta = notebook.metadata.get("course", {}) if notebook else {}
    lines = [f"## {lesson.number} · {lesson.title}", "",
             f"{lesson.teaching} min teaching, {lesson.exercise_minutes} min exercises · notebook "
             f"`notebooks/{lesson.stem}.ipynb`" + (f" · exercises `exercises/{lesson.stem}.ipynb`"
                                                   if lesson.exercises else ""), ""]
    if lesson.servers:
        lines += [f"Servers: {', '.join(f'`{name}`' for name in lesson.servers)} "
                  f"(`course serve NAME` runs one for a real host).", ""]
    lines += ["**Objectives**", ""] + [f"{i}. {text}" for i, text in enumerate(meta.get("objectives", []), 1)] + [""]
    lines += ["**Key points**", ""] + [f"{i}. {text}" for i, text in enumerate(meta.get("keypoints", []), 1)] + [""]
    titles = _exercise_titles(lesson, root)
    if lesson.exercises:
        lines += ["**Exercises**", "", "| exercise | what |", "|---|---|"]
        lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in (str(exercise), titles.get(str(exercise), "")))
                  + " |" for exercise in lesson.exercises] + [""]
        for exercise in lesson.exercises:
            check = checks.registered(exercise)
            lines += [f"*Exercise {exercise}*: the check expects that the answer will", ""]
            lines += [f"* {rule.states}" for rule in getattr(check, "rules", ())] or ["* (no written rules)"]
            mistakes = _kept_mistakes(exercise, root)
            if mistakes:
                lines += ["", f"*Mistakes it catches* (kept wrong answers to {exercise}, each rejected by the check):", ""]
                lines += [f"* {mistake}" for mistake in mistakes]
            lines.append("")
    tiers = {}
    for exercise in lesson.exercises:
        heading = titles.get(str(exercise), "")
        tier = "tier 1" if "tier 1" in heading else "tier 2" if "tier 2" in heading else "tier 3" if "tier 3" in heading else ""
        tiers.setdefault(tier, []).append(str(exercise))
    lines += ["**Facilitation**", "",
              f"* Run the lesson's cells live and read each output together before explaining it "
              f"(about {lesson.teaching} min); stored outputs are what a correct run prints.",
              (f"* Exercises: everyone does {', '.join(tiers.get('tier 1', [])) or 'the first'}"
               + (f"; {', '.join(tiers.get('tier 2', []) + tiers.get('tier 3', []))} (tier 2-3) suit pairs and fast "
                  "finishers." if tiers.get('tier 2') or tiers.get('tier 3') else ".")) if lesson.exercises
              else "* No exercises: use the time for questions.",
              "* A stuck learner runs `hints.show(\"N.M\")` for the next hint level; "
              "`course check NN` shows every exercise's status at once." if lesson.exercises else "", ""]
    return [line for line in lines if line is not None]


def anchor(heading: str) -> str:
    """The link target of a heading, as GitHub makes it (and as `html` sets it): lower case, spaces to hyphens,
    other punctuation dropped ("01 · A bad tool" -> "01--a-bad-tool")."""
    kept = "".join(ch for ch in heading.strip().lower() if ch.isalnum() or ch in " -_")
    return kept.replace(" ", "-")


def _session_name(kind: str, number: int, total: int) -> str:
    return f"{kind[0].upper()}{kind[1:]} {number} of {total}"


def schedules(lessons: list[manifest.Lesson]) -> list[str]:
    """Every format's sessions as timetables; every lesson is in each format, whole and in order."""
    lines = []
    for label, (kind, capacity) in FORMATS.items():
        sessions = fit(lessons, capacity)
        lines += [f"### {label}: {len(sessions)} {kind}s of up to {capacity // 60} h {capacity % 60:02d} of work", ""]
        for number, session in enumerate(sessions, 1):
            slots = timetable(session, lunch_after=LUNCH_AFTER[kind])
            held = (f"lesson {session[0].number}" if len(session) == 1
                    else f"lessons {session[0].number}–{session[-1].number}")
            lines += [f"**{_session_name(kind, number, len(sessions))}** ({held})", "",
                      "| time | what |", "|---|---|"]
            lines += [f"| {_clock(s.start)}–{_clock(s.end)} | {s.what} |" for s in slots] + [""]
    return lines


def markdown(root: Path) -> str:
    """The whole guide as Markdown."""
    lessons = list(manifest.lessons())
    total_teaching = sum(lesson.teaching for lesson in lessons)
    total_exercises = sum(lesson.exercise_minutes for lesson in lessons)
    sections = ["Schedules", "Before the day", *(f"{lesson.number} · {lesson.title}" for lesson in lessons), "Grading"]
    lines = ["# Instructor guide: the MCP tool-design workbook", "",
             f"{len(lessons)} lessons, {total_teaching} min of teaching and {total_exercises} min of exercises "
             f"({(total_teaching + total_exercises) / 60:.1f} h of work before breaks). Generated by `course guide` "
             "from the lesson manifest (`course_lib/workbook/lessons.toml`, where every minute below comes from), "
             "the notebooks and the checkers' specifications.", "",
             "## Contents", ""]
    lines += [f"* [{title}](#{anchor(title)})" for title in sections] + [""]
    lines += ["## Schedules", "",
              "Each format holds every lesson, whole and in course order: a session ends before the lesson that "
              f"would not fit. Breaks of {BREAK} min come about every {BREAK_EVERY} min of work; a full day has a "
              f"{LUNCH}-min lunch.", ""]
    lines += schedules(lessons)
    lines += ["## Before the day", "",
              "* On every laptop, from the course folder: `python3 -m venv .venv && .venv/bin/pip install -e .`, then "
              "`.venv/bin/course doctor`. Every line must be ✅; it checks Python, the packages, the offline tokenizer "
              "(with its hash), the Jupyter kernel and an MCP round trip.",
              "* After that install, nothing needs the network: no API key, no account; the course works with the "
              "classroom wifi down. Install before the day, not during it.",
              "* Open the course with the README's first command; JupyterLab starts on lesson 00.",
              "* Run `course lessons --detail` for the plan with objectives and key points, and this guide again "
              "after any change (`course guide`).", ""]
    for lesson in lessons:
        lines += _lesson_section(lesson, root)
    lines += grading_section()
    return "\n".join(lines).rstrip() + "\n"


def grading_section() -> list[str]:
    """How to grade, and the engines classrooms use (GitHub Classroom, Gradescope, JupyterHub and Binder)."""
    from course_lib.workbook.outcomes import MEANINGS, SYMBOLS

    return ["## Grading", "",
            "* Hand out `course release FOLDER`: lessons, exercises and the package, no solutions and no tests.",
            "* Collect the students' exercise notebooks into one folder, one subfolder per student (or "
            "`<student>.ipynb` files side by side), and run `course grade FOLDER` from this course folder. Each "
            "notebook runs in a sandboxed kernel of its own (bubblewrap on Linux: no network, nothing of the course "
            "or of other students in reach, resource limits); the checkers run in the grader and reach the answer "
            "over MCP or a call bridge, and setup and check cells come from solutions/, so a submission cannot "
            "forge its grade. `grades.csv` and `grades.html` (every reason shown, with a legend) follow.",
            "* Statuses: " + "; ".join(f"{SYMBOLS[s]} {s}: {m}" for s, m in MEANINGS.items()) + ".",
            "* A learner checks their own notebook with `course check NN` (the same checkers, in the same sandbox).",
            "",
            "### GitHub Classroom, Gradescope, JupyterHub and Binder", "",
            "* GitHub Classroom: make the release the template repository; its `.github/workflows/course-check.yml` "
            "runs `course check` on every push and puts the table in the job's summary. That is feedback (a "
            "student controls their own repository); grade with `course grade` or Gradescope.",
            "* Gradescope: `course autograder gradescope autograder.zip --lesson NN` (one per assignment; repeat "
            "`--lesson` for a set), upload it as a programming assignment's autograder on the Ubuntu 24.04 base "
            "image, one point per exercise of those lessons; notebooks of other lessons are ignored with a line. "
            "The zip holds no solutions, and its kernels get all but the last hint level (`--hints N`).",
            "* JupyterHub or Binder: the repository's `binder/` folder installs the course and runs `course doctor` "
            "while repo2docker builds the image. To hand the release out on a JupyterHub, install `nbgitpuller` in "
            "the users' image and share a link of the form `https://HUB/hub/user-redirect/git-pull?repo=RELEASE_URL"
            "&branch=main&urlpath=lab/tree/REPO_NAME/notebooks/00_start_here.ipynb%3Fautodecode` (values "
            "URL-encoded; nbgitpuller's link generator builds it; `branch` defaults to master). The first click "
            "clones the release into the student's home; later clicks pull new commits and always keep the "
            "student's own changes (nbgitpuller's automatic merging).",
            "* Codespaces: `.devcontainer/devcontainer.json` installs the course (and bubblewrap) and runs "
            "`course doctor`.", ""]


def html(text: str) -> str:
    """The guide's Markdown as a standalone HTML page."""
    import re

    import mistune

    class _Anchored(mistune.HTMLRenderer):
        def heading(self, text: str, level: int, **attrs) -> str:
            return f'<h{level} id="{anchor(re.sub("<[^>]+>", "", text))}">{text}</h{level}>\n'

    body = mistune.create_markdown(renderer=_Anchored(escape=False), plugins=["table"])(text)
    return ("<!doctype html><meta charset='utf-8'><title>Instructor guide</title><style>body{font-family:sans-serif;"
            "max-width:60rem;margin:2rem auto;line-height:1.45}table{border-collapse:collapse}th,td{border:1px solid"
            " #999;padding:3px 8px;text-align:left;vertical-align:top}code{background:#f3f3f3}</style>" + body)
