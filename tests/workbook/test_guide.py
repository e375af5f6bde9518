"""`course guide`: every lesson and exercise is in it, schedules fit their formats, both files are written."""

from __future__ import annotations

import subprocess
import sys

from conftest import ROOT
from course_lib.workbook import guide, manifest


def test_the_guide_lists_every_lesson_and_every_exercise_with_what_its_check_expects():
    from course_lib import checks

    text = guide.markdown(ROOT)
    lines = text.splitlines()
    for lesson in manifest.lessons():
        assert f"## {lesson.number} · {lesson.title}" in text
        for exercise in lesson.exercises:
            assert any(line.startswith(f"| {exercise} |") for line in lines)
            block = text.split(f"*Exercise {exercise}*", 1)[1].split("\n\n*Exercise ", 1)[0]
            for rule in checks.registered(exercise).rules:  # every rule is its own list item
                assert f"\n* {rule.states}\n" in block + "\n"
    assert "## Grading" in text and "course grade FOLDER" in text and "course doctor" in text


def test_mistakes_it_catches_are_a_list_not_one_run_on_line():
    text = guide.markdown(ROOT)
    block = text.split("*Exercise 1.1*", 1)[1].split("*Exercise 1.2*", 1)[0]
    mistakes = block.split("*Mistakes it catches*", 1)[1].splitlines()[2:]
    items = [line for line in mistakes if line.startswith("* ")]
    assert len(items) >= 3 and not any("; " in item and item.split("; ", 1)[1][:1].isupper() for item in items)


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


def test_every_format_schedules_every_lesson_whole_in_order_within_its_sessions():
    lessons = list(manifest.lessons())
    text = guide.markdown(ROOT)
    for label, (kind, capacity) in guide.FORMATS.items():
        sessions = guide.fit(lessons, capacity)
        assert [lesson for session in sessions for lesson in session] == lessons  # none left out
        for session in sessions:
            assert sum(lesson.teaching + lesson.exercise_minutes for lesson in session) <= capacity
            slots = guide.timetable(session, lunch_after=guide.LUNCH_AFTER[kind])
            assert all(a.end == b.start for a, b in zip(slots, slots[1:]))
            taught = [slot.what for slot in slots if slot.what not in ("break", "lunch")]
            assert taught == [f"{lesson.number} {lesson.title}: {part}" for lesson in session
                              for part in ("teaching", "exercises")]
            minutes = {slot.what: slot.end - slot.start for slot in slots}
            for lesson in session:  # the minutes are the manifest's
                assert minutes[f"{lesson.number} {lesson.title}: teaching"] == lesson.teaching
                assert minutes[f"{lesson.number} {lesson.title}: exercises"] == lesson.exercise_minutes
        assert f"### {label}: {len(sessions)} {kind}s" in text
    assert "Not in this format" not in text


def test_a_lesson_longer_than_a_session_is_an_error_not_a_silent_gap():
    import pytest

    lesson = manifest.lessons()[0]
    with pytest.raises(ValueError, match="longer than a 10-minute session"):
        guide.fit([lesson], 10)


def test_course_guide_writes_markdown_and_html(tmp_path):
    result = subprocess.run([sys.executable, "-m", "course_lib.cli", "guide", "--out", str(tmp_path)], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "instructor_guide.md").read_text(encoding="utf-8") == guide.markdown(ROOT)
    assert '<h2 id="schedules">Schedules</h2>' in (tmp_path / "instructor_guide.html").read_text(encoding="utf-8")
