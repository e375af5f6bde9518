"""`course guide`: the instructor guide, written from the manifest, the notebooks, the facilitation notes and the
checkers' specifications.

A table of contents; workshop schedules built from the minutes of `lessons.toml` (three full days, and half days),
each day and half day with its setup or recap, breaks, lunch and a closing recap, the lessons whole, in course order
and spread evenly; a setup checklist; per lesson its objectives, key points, exercises and the facilitation notes of
`facilitation.toml` (the one idea, the demo to run live, two questions learners ask, the common mistake and how to
unstick it, what to cut when late); how to grade; and an appendix for graders with what each check expects and the
mistakes it catches. Markdown, and HTML made from it.
"""

from __future__ import annotations

import ast
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from course_lib.workbook import build, manifest

DAY_START = 9 * 60
"""Every session starts at 09:00."""
BREAK, LUNCH, SETUP, RECAP, WRAP = 15, 60, 30, 15, 15
"""Minutes of a break, lunch, the first morning's setup, a later day's opening recap, a half day's closing recap."""
BREAK_AFTER = 100
"""A break comes before the slot that would take the time since the last break or lunch past this many minutes,
counting everything: setup, recaps, lessons and practice."""
LUNCH_WINDOW = (11 * 60 + 45 - DAY_START, 12 * 60 + 45 - DAY_START)
"""Lunch falls between two lessons or between a lesson's teaching and its exercises, never inside either: at the
first such boundary where it would start at 11:45 or later, or earlier when the next part would push its start past
12:45. (Whole lessons only put day 3's lunch at 11:16: lesson 08, 100 min, would have pushed it past 12:45;
walkthrough 5, M3.)"""
PRACTICE = "Practice: tier 2 and 3 exercises in pairs, your own server, questions"
"""What fills a full day up to the common end of the days."""


@dataclass(frozen=True)
class Format:
    """A workshop format: what one session is called, when it ends, whether it has lunch, how many sessions."""

    kind: str
    end: int
    lunch: bool
    sessions: int | None = None  # None: as few as fit


FORMATS = {"Three days": Format("day", 17 * 60, True, 3), "Half days": Format("half day", 12 * 60 + 30, False)}
FACILITATION = Path(__file__).with_name("facilitation.toml")


@dataclass(frozen=True)
class Slot:
    """One line of a schedule: start and end as minutes after 09:00, and what happens."""

    start: int
    end: int
    what: str


def _clock(minutes: int) -> str:
    total = DAY_START + minutes
    return f"{total // 60:02d}:{total % 60:02d}"


def teaching(lesson: manifest.Lesson, root: Path | None = None) -> int:
    """A lesson's teaching minutes in a schedule: those lessons.toml states, or the notebook's estimate
    (`manifest.estimate`, rounded up) where that is more; the stated ones alone without `root`."""
    if root is None:
        return lesson.teaching
    import math

    found = manifest.estimate(build.read(lesson.notebook(root)))
    return max(lesson.teaching, math.ceil(found.minutes))


def _taught(lesson: manifest.Lesson, root: Path) -> str:
    """A lesson's teaching minutes as the guide states them: the estimate, saying so, where it is more."""
    minutes = teaching(lesson, root)
    return f"{minutes} min teaching" + ("" if minutes == lesson.teaching else
                                        f" (the notebook's estimate; lessons.toml states {lesson.teaching})")


def _length(lesson: manifest.Lesson, root: Path | None = None) -> int:
    return teaching(lesson, root) + lesson.exercise_minutes


def opening(number: int, kind: str = "session") -> str:
    """What a session opens with: setup on the first, a recap of the one before on the others."""
    if number == 1:
        return ("Welcome, introductions and setup: `course doctor` on every laptop (every line ✅), "
                "open lesson 00")
    return f"Recap of {kind} {number - 1}, questions"


def timetable(lessons: list[manifest.Lesson], number: int = 1, lunch: bool = False, kind: str = "session",
              end: int | None = None, root: Path | None = None) -> list[Slot]:
    """Session `number`: its opening, each lesson's teaching and exercises, breaks, lunch between two lessons or a lesson's two parts (with
    the morning's recap before it) on a full day, practice up to `end` when given, and a closing recap."""
    slots: list[Slot] = []
    since = 0  # minutes since the last break or lunch, everything counted

    def add(minutes: int, what: str) -> None:
        nonlocal since
        if what in ("break", "lunch"):
            since = 0
        elif since and since + minutes > BREAK_AFTER:
            add(BREAK, "break")
        start = slots[-1].end if slots else 0
        slots.append(Slot(start, start + minutes, what))
        since += 0 if what in ("break", "lunch") else minutes

    add(SETUP if number == 1 else RECAP, opening(number, kind))
    lunched = not lunch
    parts = [(f"{lesson.number} {lesson.title}: {part}", minutes) for lesson in lessons
             for part, minutes in (("teaching", teaching(lesson, root)), ("exercises", lesson.exercise_minutes))]
    for what, minutes in parts:
        clock = slots[-1].end
        pause = BREAK if since + minutes > BREAK_AFTER else 0
        late = clock + pause + minutes + WRAP > LUNCH_WINDOW[1]  # the part would push lunch past 12:45
        if not lunched and (clock + WRAP >= LUNCH_WINDOW[0] or late):
            add(WRAP, "Recap of the morning, questions")
            add(LUNCH, "lunch")
            lunched = True
        elif not lunched and since and since + minutes + WRAP > BREAK_AFTER and clock + minutes + WRAP >= LUNCH_WINDOW[0]:
            add(BREAK, "break")  # lunch follows this part: its recap must not need a break of its own
        add(minutes, what)
    if end is not None:
        left = end - WRAP - slots[-1].end
        if left > 0 and since + left + WRAP > BREAK_AFTER:  # the closing recap counts too
            add(BREAK, "break")
            left -= BREAK
        if left > 0:
            add(left, PRACTICE)
    add(WRAP, "Recap of the day, questions" if lunch else "Recap, questions, what comes next")
    return _no_break_at_the_end(slots)


MIN_PRACTICE = 20
"""A practice block shorter than this is no block: its minutes go to the closing recap."""


def _no_break_at_the_end(slots: list[Slot]) -> list[Slot]:
    """`slots` without a break that only separates the last lesson from a short practice and the closing recap
    (walkthrough 3, N-K3): that break moves to between the last lesson's teaching and its exercises when no stretch
    then passes BREAK_AFTER, and a practice block under MIN_PRACTICE joins the closing recap."""
    parts = [(slot.what, slot.end - slot.start) for slot in slots]
    tail = [what for what, _ in parts[-3:]]
    if tail[-2:] == ["break", parts[-1][0]] or (tail[0] == "break" and tail[1] == PRACTICE
                                                and parts[-2][1] < MIN_PRACTICE):
        at = len(parts) - (2 if tail[-2] == "break" else 3)
        exercises = max(i for i, (what, _) in enumerate(parts) if what.endswith(": exercises"))
        moved = parts[:exercises] + [parts[at]] + parts[exercises:at] + parts[at + 1:]
        if _longest_stretch(moved) <= BREAK_AFTER:
            parts = moved
    if len(parts) > 2 and parts[-2][0] == PRACTICE and parts[-2][1] < MIN_PRACTICE:
        parts = parts[:-2] + [(parts[-1][0], parts[-1][1] + parts[-2][1])]
    found, start = [], 0
    for what, minutes in parts:
        found.append(Slot(start, start + minutes, what))
        start += minutes
    return found


def _longest_stretch(parts: list[tuple[str, int]]) -> int:
    """The most minutes in a row without a break or lunch."""
    longest = run = 0
    for what, minutes in parts:
        run = 0 if what in ("break", "lunch") else run + minutes
        longest = max(longest, run)
    return longest


def _split(lessons: list[manifest.Lesson], count: int, root: Path | None = None) -> list[list[manifest.Lesson]]:
    """Lessons in course order, whole, into `count` sessions with the largest one as small as it can be."""
    lengths = [_length(lesson, root) for lesson in lessons]
    best: dict[tuple[int, int], tuple[int, list[int]]] = {}

    def solve(start: int, left: int) -> tuple[int, list[int]]:
        """(the largest session's minutes, the cut points) for lessons[start:] in `left` sessions."""
        if (start, left) in best:
            return best[start, left]
        if left == 1:
            found = (sum(lengths[start:]), [])
        else:
            found = (10 ** 9, [])
            for cut in range(start + 1, len(lessons) - left + 2):
                rest, cuts = solve(cut, left - 1)
                found = min(found, (max(sum(lengths[start:cut]), rest), [cut, *cuts]))
        best[start, left] = found
        return found

    cuts = [0, *solve(0, count)[1], len(lessons)]
    return [lessons[a:b] for a, b in zip(cuts, cuts[1:])]


def plan(lessons: list[manifest.Lesson], fmt: Format, root: Path | None = None) -> list[list[Slot]]:
    """Every session's timetable in a format: its number of sessions, or as few as fit before the session ends;
    with `root`, each lesson's teaching minutes as `teaching` gives them."""
    counts = [fmt.sessions] if fmt.sessions else range(1, len(lessons) + 1)
    for count in counts:
        if count > len(lessons):
            break
        sessions = _split(lessons, count, root)
        tables = [timetable(session, number, fmt.lunch, fmt.kind, root=root)
                  for number, session in enumerate(sessions, 1)]
        if all(DAY_START + table[-1].end <= fmt.end for table in tables):
            if not fmt.lunch:
                return tables
            common = -(-max(table[-1].end for table in tables) // 30) * 30  # the latest day's end, to the half hour
            return [timetable(session, number, fmt.lunch, fmt.kind, end=common, root=root)
                    for number, session in enumerate(sessions, 1)]
    raise ValueError(f"the lessons do not fit {fmt.sessions or 'any number of'} {fmt.kind}s ending at "
                     f"{fmt.end // 60:02d}:{fmt.end % 60:02d}")


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
    """The summaries of the kept wrong answers to an exercise (real mistakes the checks catch): each docstring's
    first paragraph, whole, as one line."""
    found = []
    for path in sorted((root / manifest.ANSWERS / "wrong").glob(f"{exercise.checker_name}_*.py")):
        docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        if docstring:
            summary = " ".join(docstring.split("\n\n")[0].split())
            found.append(PROVENANCE.sub("", summary).rstrip("."))
    return found


PROVENANCE = re.compile(r"\s*\((?=[^()]*\b(?:round \d|unseen answers|red team|issue \d+)\b)[^()]*\)", re.IGNORECASE)
"""A parenthesis saying where a kept answer came from (a review round, an issue): for maintainers, not graders."""


def _tiers(lesson: manifest.Lesson, titles: dict[str, str]) -> str:
    """Which exercises everyone does (tier 1) and which suit pairs and fast finishers (tiers 2 and 3)."""
    first = everyone(lesson, titles)
    later = [f"{e} (tier {_tier(titles.get(str(e), ''))})" for e in lesson.exercises if str(e) not in first]
    text = f"everyone does {', '.join(first)}"
    return text + (f"; {', '.join(later)} suit{'s' if len(later) == 1 else ''} pairs and fast finishers." if later
                   else ".")


def _tier(title: str) -> str:
    """The tier an exercise heading gives ("… (rewrite · tier 2 · 12 min)"), or "?"."""
    import re

    found = re.search(r"tier (\d)", title)
    return found.group(1) if found else "?"


def everyone(lesson: manifest.Lesson, titles: dict[str, str]) -> list[str]:
    """The exercises everyone does in class: the lesson's tier 1 ones (its first exercise when none is)."""
    return [str(e) for e in lesson.exercises if _tier(titles.get(str(e), "")) == "1"] or [str(lesson.exercises[0])]


def _lesson_section(lesson: manifest.Lesson, root: Path) -> list[str]:
    notebook = build.read(lesson.notebook(root)) if lesson.notebook(root).is_file() else None
    meta = notebook.metadata.get("course", {}) if notebook else {}
    lines = [f"## {lesson.number} · {lesson.title}", "",
             f"{_taught(lesson, root)}, {lesson.exercise_minutes} min exercises · notebook "
             f"`notebooks/{lesson.stem}.ipynb`" + (f" · exercises `exercises/{lesson.stem}.ipynb`"
                                                   if lesson.exercises else ""), ""]
    if lesson.servers:
        lines += [f"Servers: {', '.join(f'`{name}`' for name in lesson.servers)} "
                  f"(`course serve NAME` runs one for a real host).", ""]
    lines += ["**Objectives**", ""] + [f"{i}. {text}" for i, text in enumerate(meta.get("objectives", []), 1)] + [""]
    lines += ["**Key points**", ""] + [f"{i}. {text}" for i, text in enumerate(meta.get("keypoints", []), 1)] + [""]
    lines += _facilitation_section(lesson)
    if lesson.exercises:
        titles = _exercise_titles(lesson, root)
        lines += ["**Exercises**", "", "| exercise | what |", "|---|---|"]
        lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in (str(exercise), titles.get(str(exercise), "")))
                  + " |" for exercise in lesson.exercises] + [""]
        lines += [f"In class, {_tiers(lesson, titles)} A stuck learner runs `hints.show(\"N.M\")` (each call climbs one "
                  f"level: the idea, the API, the last hint); `.venv/bin/course check {lesson.number}` shows every "
                  "exercise's status at once. What each check expects is in the appendix for graders.", ""]
    return lines


def grader_appendix(root: Path) -> list[str]:
    """For graders: per exercise, every rule its check expects and the kept wrong answers it rejects."""
    from course_lib import checks

    lines = [f"## {APPENDIX}", "",
             "What each check expects (its rules, in the words the exercise states them) and the mistakes it catches "
             "(kept wrong answers in `tests/answers/wrong/`, each rejected by the check in the test suite).", ""]
    for lesson in manifest.lessons():
        for exercise in lesson.exercises:
            check = checks.registered(exercise)
            lines += [f"*Exercise {exercise}*: the check expects that the answer will", ""]
            lines += [f"* {rule.states}" for rule in getattr(check, "rules", ())] or ["* (no written rules)"]
            mistakes = _kept_mistakes(exercise, root)
            if mistakes:
                lines += ["", f"*Mistakes it catches* (kept wrong answers to {exercise}, each rejected by the check):", ""]
                lines += [f"* {mistake}" for mistake in mistakes]
            lines.append("")
    return lines


APPENDIX = "Appendix for graders: what each check expects"


def anchor(heading: str) -> str:
    """The link target of a heading, as GitHub makes it (and as `html` sets it): lower case, spaces to hyphens,
    other punctuation dropped ("01 · A bad tool" -> "01--a-bad-tool")."""
    kept = "".join(ch for ch in heading.strip().lower() if ch.isalnum() or ch in " -_")
    return kept.replace(" ", "-")


def schedules(lessons: list[manifest.Lesson], root: Path | None = None) -> list[str]:
    """Every format's sessions as timetables."""
    lines = []
    for label, fmt in FORMATS.items():
        tables = plan(lessons, fmt, root)
        last = max(slots[-1].end for slots in tables)
        lines += [f"### {label}: {len(tables)} {fmt.kind}s, 09:00 to {_clock(last)}"
                  + (" every day" if fmt.lunch else " at the latest"), ""]
        for number, slots in enumerate(tables, 1):
            held = sorted({slot.what[:2] for slot in slots if slot.what[:2].isdigit()})
            work = sum(slot.end - slot.start for slot in slots if slot.what[:2].isdigit())
            lines += [f"**{fmt.kind[0].upper()}{fmt.kind[1:]} {number} of {len(tables)}** "
                      f"(lesson{'s' if len(held) > 1 else ''} {held[0]}{'–' + held[-1] if len(held) > 1 else ''}, "
                      f"{work} min of lessons, ends {_clock(slots[-1].end)})", "", "| time | what |", "|---|---|"]
            lines += [f"| {_clock(s.start)}–{_clock(s.end)} | {s.what} |" for s in slots] + [""]
    return lines


def facilitation() -> dict[str, dict]:
    """The facilitation notes of each lesson, by lesson number."""
    with FACILITATION.open("rb") as notes:
        return {entry["number"]: entry for entry in tomllib.load(notes)["lesson"]}


def _facilitation_section(lesson: manifest.Lesson) -> list[str]:
    notes = facilitation().get(lesson.number)
    if notes is None:
        return []
    lines = ["**Facilitation**", "",
             f"* **The one idea to land:** {notes['idea']}",
             f"* **Demo live:** {notes['demo']}",
             "* **Learners ask:**"]
    lines += [f"  * *{question['q']}* {question['a']}" for question in notes["questions"]]
    lines += [f"* **Common mistake:** {notes['mistake']}",
              f"* **How to unstick it:** {notes['unstick']}",
              f"* **When running late, cut:** {notes['cut']}", ""]
    return lines


def markdown(root: Path) -> str:
    """The whole guide as Markdown."""
    lessons = list(manifest.lessons())
    total_teaching = sum(teaching(lesson, root) for lesson in lessons)
    total_exercises = sum(lesson.exercise_minutes for lesson in lessons)
    sections = ["Schedules", "Before the day", *(f"{lesson.number} · {lesson.title}" for lesson in lessons), "Grading",
                APPENDIX]
    lines = ["# Instructor guide: the MCP tool-design workbook", "",
             f"{len(lessons)} lessons, {total_teaching} min of teaching and {total_exercises} min of exercises "
             f"({(total_teaching + total_exercises) / 60:.1f} h of lessons). Generated by `course guide` from the "
             "lesson manifest (`course_lib/workbook/lessons.toml`, where every lesson's minutes come from, the same "
             "as the README's; a lesson's teaching minutes are at least its notebook's estimate), the "
             "notebooks, the facilitation notes (`course_lib/workbook/facilitation.toml`) and the checkers' "
             "specifications.", "",
             "## Contents", ""]
    lines += [f"* [{title}](#{anchor(title)})" for title in sections] + [""]
    lines += ["## Schedules", "",
              "Every format holds every lesson, whole and in course order, spread as evenly as whole lessons allow. "
              f"The first session opens with {SETUP} min of welcome and setup (`course doctor` on every laptop); each "
              f"later one with a {RECAP}-min recap. A {BREAK}-min break comes before anything that would make the "
              f"time since the last break or lunch pass {BREAK_AFTER} min (setup and recaps count). Each lesson's teaching "
              "time is the minutes lessons.toml and the README state (at least the estimate `course lessons` prints). "
              f"A full day has a "
              f"{LUNCH}-min lunch between two lessons or between a lesson's teaching and its exercises, with a recap of "
              f"the morning before it; it starts between {_clock(LUNCH_WINDOW[0])} and {_clock(LUNCH_WINDOW[1])}. Every morning, afternoon and half day ends with a "
              f"{WRAP}-min recap and questions. The full days all end at the same time: a day with fewer lesson "
              "minutes gets a practice block (tier 2 and 3 exercises in pairs, learners' own servers) before its "
              f"closing recap, or a longer recap when fewer than {MIN_PRACTICE} min are left. No break stands just "
              "before the closing recap: it moves to between the last lesson's teaching and its exercises.", ""]
    lines += schedules(lessons, root)
    lines += ["## Before the day", "",
              "* Send the install ahead: on every laptop, from the course folder, `python3 -m venv .venv && "
              ".venv/bin/pip install .`, then `.venv/bin/course doctor`. Every line must be ✅; it checks Python, the "
              "packages, the offline tokenizer (with its hash), the Jupyter kernel and an MCP round trip.",
              "* After that install, nothing needs the network: no API key, no account; the course works with the "
              "classroom wifi down. The setup block at the start of day 1 is for the laptops where `course doctor` "
              "still shows a ❌, not for installing from scratch.",
              "* `.venv/bin/jupyter lab` from the course folder opens lesson 00.",
              "* Hand out the student release (`course release FOLDER`), not this repository: it has no solutions.",
              "* Run `course lessons --detail` for the plan with objectives and key points, and this guide again "
              "after any change (`course guide`).", ""]
    for lesson in lessons:
        lines += _lesson_section(lesson, root)
    lines += grading_section()
    lines += grader_appendix(root)
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
            "forge its grade. `grades.csv`, `grades.html` (every reason shown, with a legend) and `grades_totals.csv` "
            "(the class's passed count and pass rate per exercise) follow.",
            "* Statuses: " + "; ".join(f"{SYMBOLS[s]} {s}: {m}" for s, m in MEANINGS.items()) + ".",
            "* A learner checks their own notebook with `.venv/bin/course check NN` (the same checkers, in the same "
            "sandbox).",
            "",
            "### GitHub Classroom, Gradescope, JupyterHub and Binder", "",
            "* GitHub Classroom: make the release the template repository; its `.github/workflows/course-check.yml` "
            "runs `course check` on every push, puts the table in the job's summary and reports one point per "
            "exercise that passed to Classroom (partial points for a partly done repository): the run's notice "
            "\"Autograding complete\" reads \"Points N/M\", M counting every exercise of the course, so for an "
            "assignment of some lessons read the job summary's table of those lessons' notebooks, not the total. "
            "The run is red only while an exercise the student attempted does not pass: an exercise still holding "
            "its stub scores 0 but leaves it green, so a fresh repository is green with 0 points. (The reporter, "
            "`classroom-resources/autograding-grading-reporter@v1`, `src/main.js`, fails the run when a runner's "
            "overall status is `fail` or `error`; the course's runner sets `fail` only for an attempted exercise; "
            "its `src/notify-classroom.js` writes the points notice.) That is feedback (a student controls their own "
            "repository); grade with `course grade` or Gradescope.",
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
