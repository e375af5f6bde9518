"""`course guide`: every lesson and exercise is in it, schedules fit their formats, both files are written."""

from __future__ import annotations

import subprocess
import sys

from conftest import ROOT
from course_lib.workbook import guide, manifest


def test_the_guide_lists_every_lesson_and_every_exercise_with_what_its_check_expects():
    from course_lib import checks

    text = guide.markdown(ROOT)
    for lesson in manifest.lessons():
        assert f"## {lesson.number} · {lesson.title}" in text
        for exercise in lesson.exercises:
            row = next(line for line in text.splitlines() if line.startswith(f"| {exercise} |"))
            assert checks.registered(exercise).rules[0].states.replace("|", "\\|") in row
    assert "## Grading" in text and "course grade FOLDER" in text and "course doctor" in text


def test_each_schedule_keeps_lessons_whole_in_order_and_within_its_session():
    lessons = list(manifest.lessons())
    for sessions, capacity in guide.FORMATS.values():
        planned, left = guide.fit(lessons, sessions, capacity)
        assert [lesson for session in planned for lesson in session] + left == lessons
        for session in planned:
            assert sum(lesson.teaching + lesson.exercise_minutes for lesson in session) <= capacity
            slots = guide.timetable(session, lunch_after=150)
            assert all(a.end == b.start for a, b in zip(slots, slots[1:]))


def test_course_guide_writes_markdown_and_html(tmp_path):
    result = subprocess.run([sys.executable, "-m", "course_lib.cli", "guide", "--out", str(tmp_path)], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "instructor_guide.md").read_text(encoding="utf-8") == guide.markdown(ROOT)
    assert "<h2>Schedules</h2>" in (tmp_path / "instructor_guide.html").read_text(encoding="utf-8")
