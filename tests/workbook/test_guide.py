"""`course guide`: every lesson and exercise is in it, schedules fit their formats, both files are written."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from conftest import ROOT
from course_lib.workbook import guide, manifest


def test_the_guide_lists_every_lesson_and_every_exercise_with_what_its_check_expects_in_an_appendix():
    from course_lib import checks

    text = guide.markdown(ROOT)
    lessons_part, appendix = text.split(f"## {guide.APPENDIX}", 1)
    lines = lessons_part.splitlines()
    for lesson in manifest.lessons():
        assert f"## {lesson.number} · {lesson.title}" in lessons_part
        for exercise in lesson.exercises:
            assert any(line.startswith(f"| {exercise} |") for line in lines)
            block = appendix.split(f"*Exercise {exercise}*", 1)[1].split("\n\n*Exercise ", 1)[0]
            for rule in checks.registered(exercise).rules:  # every rule is its own list item, for graders
                assert f"\n* {rule.states}\n" in block + "\n"
                assert rule.states not in lessons_part  # not in the sections an instructor teaches from
    assert "## Grading" in text and "course grade FOLDER" in text and "course doctor" in text


def test_every_lesson_has_facilitation_notes_of_its_own():
    notes = guide.facilitation()
    assert sorted(notes) == [lesson.number for lesson in manifest.lessons()]
    text = guide.markdown(ROOT)
    seen: dict[str, str] = {}
    for lesson in manifest.lessons():
        entry = notes[lesson.number]
        for field in ("idea", "demo", "mistake", "unstick", "cut"):
            assert len(entry[field].split()) >= 8, (lesson.number, field)
            assert entry[field] not in seen, (lesson.number, field, seen.get(entry[field]))  # never the same text
            seen[entry[field]] = lesson.number
        assert len(entry["questions"]) == 2 and all(q["q"].endswith("?") and q["a"] for q in entry["questions"])
        section = text.split(f"## {lesson.number} · ", 1)[1].split("\n## ", 1)[0]
        for label in ("The one idea to land", "Demo live", "Learners ask", "Common mistake", "How to unstick it",
                      "When running late, cut"):
            assert f"**{label}:**" in section, (lesson.number, label)
        notebook = (ROOT / "notebooks" / f"{lesson.stem}.ipynb").read_text(encoding="utf-8")
        for quoted in re.findall(r"'([A-Z][^']{6,})'", entry["demo"] + entry["cut"]):  # sections it names exist
            assert f"## {quoted}" in notebook or f"### {quoted}" in notebook, (lesson.number, quoted)
        for exercise in re.findall(r"exercises? (\d\.\d)", entry["mistake"] + entry["unstick"]):
            assert exercise in {str(e) for e in lesson.exercises}, (lesson.number, exercise)


def test_facilitation_notes_agree_with_who_does_which_exercise_in_class():
    """A note names only its lesson's exercises; its common mistake is one an everyone exercise meets; what it cuts
    (the text before any 'keep') names no everyone exercise, except to say everyone does it, and none of the terms
    (in backticks) that exercise's check is about; the generated line gives each other exercise its own tier."""
    from course_lib import checks
    from course_lib.workbook.ids import ExerciseId

    text = guide.markdown(ROOT)
    for lesson in manifest.lessons():
        entry = guide.facilitation()[lesson.number]
        titles = guide._exercise_titles(lesson, ROOT)
        ours, everyone = {str(e) for e in lesson.exercises}, guide.everyone(lesson, titles)
        notes = " ".join([entry[f] for f in ("idea", "demo", "mistake", "unstick", "cut")]
                         + [q["q"] + " " + q["a"] for q in entry["questions"]])
        assert set(re.findall(r"(?<!SDK )\b\d\.\d\b", notes)) <= ours, lesson.number  # not a version
        named = set(re.findall(r"\b\d\.\d\b", entry["mistake"]))
        assert not named or named & set(everyone), (lesson.number, "mistake", named, everyone)
        cut = re.split(r"\bkeep\b", entry["cut"], flags=re.I)[0]
        cut = re.sub(r"everyone does [\d., and]+|Do exercise [\d.]+ together", "", cut)
        for exercise in everyone:
            assert not re.search(rf"\b{re.escape(exercise)}\b", cut), (lesson.number, "cut", exercise)
            states = " ".join(rule.states for rule in checks.registered(ExerciseId.parse(exercise)).rules)
            for term in re.findall(r"`([^`]+)`", cut):
                assert term not in states, (lesson.number, "cut", exercise, term)
        section = text.split(f"## {lesson.number} · ", 1)[1].split("\n## ", 1)[0]
        for exercise in lesson.exercises:
            if str(exercise) not in everyone:
                tier = re.search(r"tier (\d)", titles[str(exercise)]).group(1)
                assert f"{exercise} (tier {tier})" in section, (lesson.number, exercise)
        assert "tier 2 or 3" not in section


def test_mistakes_it_catches_are_a_list_not_one_run_on_line():
    text = guide.markdown(ROOT)
    block = text.split("*Exercise 1.1*", 1)[1].split("*Exercise 1.2*", 1)[0]
    mistakes = block.split("*Mistakes it catches*", 1)[1].splitlines()[2:]
    items = [line for line in mistakes if line.startswith("* ")]
    assert len(items) >= 3 and not any("; " in item and item.split("; ", 1)[1][:1].isupper() for item in items)


def test_every_kept_mistake_is_its_whole_sentence_never_cut_at_a_line_end():
    import ast

    appendix = guide.markdown(ROOT).split(f"## {guide.APPENDIX}", 1)[1]
    wrong = sorted((ROOT / manifest.ANSWERS / "wrong").glob("ex_*.py"))
    paragraphs = [ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) for path in wrong]
    long = [guide.PROVENANCE.sub("", " ".join(text.split("\n\n")[0].split())).rstrip(".")
            for text in paragraphs if text and "\n" in text]
    assert len(long) >= 30  # docstrings that wrap over lines
    for summary in long:
        assert f"\n* {summary}\n" in appendix, summary


def test_the_contents_link_every_section_and_the_html_headings_carry_those_targets():
    import re

    text = guide.markdown(ROOT)
    page = guide.html(text)
    headings = re.findall(r"^## (.+)$", text, re.M)
    contents = text.split("## Contents", 1)[1].split("\n## ", 1)[0]
    for heading in headings:
        if heading != "Contents":
            assert f"[{heading}](#{guide.anchor(heading)})" in contents
            assert f'id="{guide.anchor(heading)}"' in page
    assert guide.anchor("01 · A bad tool and its rewrite") == "01--a-bad-tool-and-its-rewrite"  # GitHub's form


@pytest.mark.parametrize("label", list(guide.FORMATS))
def test_every_format_is_a_workshop_that_fits_its_days(label):
    """Setup with course doctor first, recaps, breaks, lunch on a full day, every lesson whole and in order with
    its manifest minutes, every session ending in time, and days balanced."""
    lessons = list(manifest.lessons())
    fmt = guide.FORMATS[label]
    tables = guide.plan(lessons, fmt, ROOT)
    if fmt.sessions:
        assert len(tables) == fmt.sessions
    held: list[str] = []
    loads = []
    for number, slots in enumerate(tables, 1):
        assert slots[0].start == 0 and all(a.end == b.start for a, b in zip(slots, slots[1:]))
        assert guide.DAY_START + slots[-1].end <= fmt.end  # ends in time
        whats = [slot.what for slot in slots]
        assert ("course doctor" in whats[0]) == (number == 1) and (number == 1 or whats[0].startswith("Recap of"))
        assert whats[-1].startswith("Recap")
        lessons_only = [slot for slot in slots if slot.what[:2].isdigit()]
        held += [slot.what for slot in lessons_only]
        loads.append(sum(slot.end - slot.start for slot in lessons_only))
        run = 0
        for slot in slots:  # never more than BREAK_AFTER minutes of lessons without a pause
            run = run + slot.end - slot.start if slot.what[:2].isdigit() else 0
            assert run <= max(guide.BREAK_AFTER, max(lesson.exercise_minutes for lesson in lessons))
        if fmt.lunch:
            lunch = whats.index("lunch")
            assert whats[lunch - 1] == "Recap of the morning, questions"
            assert guide.LUNCH_WINDOW[0] - 60 <= slots[lunch].start <= guide.LUNCH_WINDOW[1] + 60
    assert held == [f"{lesson.number} {lesson.title}: {part}" for lesson in lessons for part in ("teaching", "exercises")]
    assert max(loads) - min(loads) <= max(lesson.teaching + lesson.exercise_minutes for lesson in lessons)
    text = guide.markdown(ROOT)
    assert f"### {label}: {len(tables)} {fmt.kind}s" in text


@pytest.mark.parametrize("label", list(guide.FORMATS))
def test_the_schedules_keep_the_rules_their_text_states(label):
    """Counting everything (setup, lessons, practice and every recap, the one before lunch and the closing one
    too), no stretch without a break passes BREAK_AFTER (walkthrough 2, K2: day 1 ran 108 min, 14:12-16:00); lunch
    falls between two lessons and starts by 12:45; full days all end at the one time the heading gives."""
    fmt = guide.FORMATS[label]
    tables = guide.plan(list(manifest.lessons()), fmt, ROOT)
    for slots in tables:
        run = 0
        for slot in slots:
            if slot.what in ("break", "lunch"):
                run = 0
                continue
            run += slot.end - slot.start
            assert run <= guide.BREAK_AFTER or run == slot.end - slot.start, (label, slot)
        whats = [slot.what for slot in slots]
        if fmt.lunch:
            lunch = whats.index("lunch")
            assert guide.DAY_START + slots[lunch].start <= 12 * 60 + 45
            assert whats[lunch - 2].endswith((": exercises", ": teaching")) and whats[lunch + 1][:2].isdigit()
    text = guide.markdown(ROOT)
    if fmt.lunch:
        ends = {slots[-1].end for slots in tables}
        assert len(ends) == 1 and f"09:00 to {guide._clock(ends.pop())} every day" in text
        assert "lunch between two lessons or between a lesson's teaching and its exercises" in text
        assert "it starts between 11:45 and 12:45" in text
    assert "(setup and recaps count)" in text
    heading = next(line for line in text.splitlines() if line.startswith(f"### {label}:"))
    assert "by" not in heading.split(",", 1)[1], heading  # one end time, not "11:59 at the latest (all end by 12:30)"


@pytest.mark.parametrize("label", list(guide.FORMATS))
def test_no_break_only_separates_the_end_from_a_short_closing(label):
    """Walkthrough 3, N-K3: day 1 had a break, a 7-min practice, then the closing recap; half day 2 a break right
    before its closing recap. The last break of a session is followed by at least a lesson or MIN_PRACTICE minutes
    of practice, and no practice block is shorter than MIN_PRACTICE."""
    for slots in guide.plan(list(manifest.lessons()), guide.FORMATS[label], ROOT):
        whats = [slot.what for slot in slots]
        last = max(i for i, what in enumerate(whats) if what == "break")
        after = slots[last + 1:-1]
        assert any(s.what[:2].isdigit() for s in after) or sum(s.end - s.start for s in after) >= guide.MIN_PRACTICE, \
            (label, [(guide._clock(s.start), s.what) for s in slots[last:]])
        assert all(s.end - s.start >= guide.MIN_PRACTICE for s in slots if s.what == guide.PRACTICE), label


@pytest.mark.parametrize("label", list(guide.FORMATS))
def test_every_lesson_gets_at_least_its_estimated_teaching_minutes(label):
    """Walkthrough 2, C7: the schedules used only the stated minutes where `course lessons` estimates more (07: 45
    stated, 53 estimated)."""
    import math

    import nbformat

    slots = [slot for slots in guide.plan(list(manifest.lessons()), guide.FORMATS[label], ROOT) for slot in slots]
    for lesson in manifest.lessons():
        found = manifest.estimate(nbformat.read(lesson.notebook(ROOT), as_version=4))
        (taught,) = [s for s in slots if s.what == f"{lesson.number} {lesson.title}: teaching"]
        assert taught.end - taught.start == max(lesson.teaching, math.ceil(found.minutes)), lesson.number


def test_three_days_are_balanced_days_not_two_long_ones_and_a_stub():
    loads = [sum(s.end - s.start for s in slots if s.what[:2].isdigit())
             for slots in guide.plan(list(manifest.lessons()), guide.FORMATS["Three days"], ROOT)]
    assert min(loads) >= 0.9 * max(loads), loads


def test_every_day_has_lunch_at_lunch_time_and_neither_half_of_it_is_long():
    """Walkthrough 5, M3: whole lessons put day 3's lunch at 11:16 (lesson 08, 100 min, would have pushed it past
    12:45), a morning of 2 h 16 and an afternoon of 4 h 14. Lunch may fall between a lesson's teaching and its
    exercises: every day it starts between 11:45 and 12:45, and neither half of a day passes 4 h."""
    for number, slots in enumerate(guide.plan(list(manifest.lessons()), guide.FORMATS["Three days"], ROOT), 1):
        (lunch,) = [slot for slot in slots if slot.what == "lunch"]
        assert 11 * 60 + 45 <= guide.DAY_START + lunch.start <= 12 * 60 + 45, (number, guide._clock(lunch.start))
        morning, afternoon = lunch.start - slots[0].start, slots[-1].end - lunch.end
        assert max(morning, afternoon) <= 4 * 60, (number, morning, afternoon)
        assert abs(morning - afternoon) <= 60, (number, morning, afternoon)


def test_course_guide_writes_markdown_and_html(tmp_path):
    result = subprocess.run([sys.executable, "-m", "course_lib.cli", "guide", "--out", str(tmp_path)], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "instructor_guide.md").read_text(encoding="utf-8") == guide.markdown(ROOT)
    assert '<h2 id="schedules">Schedules</h2>' in (tmp_path / "instructor_guide.html").read_text(encoding="utf-8")


def test_the_graders_appendix_says_what_a_mistake_is_not_where_it_was_found():
    """Kept wrong answers note their origin for maintainers ("round 5 of the unseen answers", "issue 29"); a grader
    reading the guide needs only the mistake (walkthrough 2, K5)."""
    lines = guide.grader_appendix(ROOT)
    origin = [line for line in lines if re.search(r"round \d|unseen answers|red team|issue \d", line, re.IGNORECASE)]
    assert not origin, origin[:3]
    assert any("Keeps only the first ten orders, as if the table had one page" in line for line in lines)


def test_what_the_guide_calls_optional_reading_in_lesson_05_is_marked_optional_in_the_lesson():
    """Walkthrough 5, N6: the guide's "cut when late" for 05 names the production material (the same promise
    without a lock, the SQL recipe) as optional reading; the lesson showed it as main text. Its headings say
    "(optional)" and a box says what it is for; the cells keep their ids."""
    import json

    cut = guide.facilitation()["05"]["cut"]
    assert "the same promise without a lock, the SQL recipe" in cut and "optional reading" in cut
    cells = {cell["id"]: "".join(cell["source"]) for cell in json.loads(
        (ROOT / "notebooks" / "05_safe_mutation_incidents.ipynb").read_text(encoding="utf-8"))["cells"]}
    production, recipe = cells["82839748"], cells["0cc40433"]
    assert production.startswith("## In production (optional): the same promise without a lock\n\n> **Optional**: ")
    assert recipe.startswith("### The recipe, in SQL (optional)\n")
