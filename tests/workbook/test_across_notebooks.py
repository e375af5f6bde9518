"""Every solution notebook passes and every unsolved exercise notebook is "not done" across the grading boundary,
as they do in process (nbval runs the solutions; tests/checks/test_checkers.py the unsolved notebooks)."""

from __future__ import annotations

import pytest

from conftest import ROOT
from course_lib.workbook import build, manifest, runner

@pytest.mark.parametrize("folder", ["solutions", "exercises"])
@pytest.mark.parametrize("lesson", [found for found in manifest.lessons() if found.exercises], ids=lambda l: l.number)
def test_every_solution_passes_and_every_stub_is_not_done_across_the_boundary(lesson, folder):
    reference = build.student_version(build.read(lesson.notebook(ROOT, "solutions")))
    found = runner.check(lesson.notebook(ROOT, folder), timeout=120, reference=reference)
    assert [outcome.exercise for outcome in found] == [str(exercise) for exercise in lesson.exercises]
    wanted = "passed" if folder == "solutions" else "not done"
    assert [(o.exercise, o.status) for o in found] == [(o.exercise, wanted) for o in found], found
