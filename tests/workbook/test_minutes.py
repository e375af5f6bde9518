"""Stated minutes a learner can meet: each lesson's teaching minutes against its estimate from the notebook."""

from __future__ import annotations

import nbformat
import pytest

from conftest import ROOT
from course_lib.workbook import manifest

LEAST_SHARE = 0.8
"""Stated teaching minutes are at least this share of the estimate (manifest.estimate: words, code cells, code
lines and output lines)."""
MOST_SHARE = 1.1
"""... and at most this share of it: a lesson stated much longer than it reads is overstated (04 was 35 for 30)."""
MOST_MINUTES = 60
"""The longest lesson, in teaching minutes. It was 50 while lessons.toml stated less than the notebooks' estimates
(08: 48 stated, 57 estimated); stated minutes are now at least the estimate (walkthrough 3, N-K4), so the cap is
on what a lesson really takes."""
PENDING: set[str] = set()
"""Lessons not yet brought within their minutes (issue 20); each leaves this set when it fits (strict xfail)."""


def test_estimate_counts_words_code_and_output_lines_and_a_separate_appendix():
    cell = nbformat.v4
    long_output = cell.new_output("stream", name="stdout", text="row\n" * 30 + "\n")
    notebook = cell.new_notebook(cells=[
        cell.new_markdown_cell("# Title\n\none two three"),  # 5 words
        cell.new_code_cell("x = 1"), cell.new_code_cell("   "),  # an empty code cell is nothing to run
        cell.new_markdown_cell(" ".join(["word"] * 255)),
        cell.new_code_cell("y = 2\n\nz = [\n    y,\n]", outputs=[long_output]),  # 4 code lines, 30 output lines
        cell.new_code_cell("t", outputs=[cell.new_output("execute_result", data={"text/plain": "1\n2", "text/html": "<b>"})]),
        cell.new_markdown_cell("## Appendix: optional\n\nfour more words here"),  # 7 words, optional
        cell.new_code_cell("z = 3"),
    ])
    found = manifest.estimate(notebook)
    assert found.lesson == manifest.Part(words=260, code_cells=3, code_lines=6, output_lines=32)
    assert found.appendix == manifest.Part(words=7, code_cells=1, code_lines=1, output_lines=0)
    assert found.minutes == pytest.approx(260 / 130 + 3 * 0.6 + 6 * 0.05 + 32 * 0.06)
    assert found.appendix_minutes == pytest.approx(7 / 130 + 0.6 + 0.05)


def test_a_cell_of_forty_lines_with_a_long_output_costs_more_than_a_one_liner():
    cell = nbformat.v4
    short = manifest.estimate(cell.new_notebook(cells=[cell.new_code_cell("x = 1")]))
    long = manifest.estimate(cell.new_notebook(cells=[cell.new_code_cell("x = 1\n" * 40, outputs=[
        cell.new_output("stream", name="stdout", text="line\n" * 40)])]))
    assert long.minutes - short.minutes == pytest.approx(39 * 0.05 + 40 * 0.06)


CLOSING_PENDING: set[str] = set()
"""Lessons whose closing still states other exercise minutes than lessons.toml (issue 28: lesson 08 says 35, the
manifest 40; its prose belongs to the evals helper). Strict xfail: remove the number when it agrees."""


@pytest.mark.parametrize("lesson", manifest.lessons(), ids=lambda lesson: lesson.number)
def test_every_about_n_minutes_in_a_lesson_is_its_exercise_minutes(lesson, request):
    import re

    if lesson.number in CLOSING_PENDING:
        request.applymarker(pytest.mark.xfail(strict=True, reason="issue 28: closing minutes disagree"))
    notebook = nbformat.read(lesson.notebook(ROOT), as_version=4)
    stated = [int(n) for cell in notebook.cells if cell.cell_type == "markdown"
              for n in re.findall(r"\babout\s+(\d+)\s+minutes\b", cell.source)]
    assert all(n == lesson.exercise_minutes for n in stated), (
        f"lesson {lesson.number} says about {stated} minutes; lessons.toml gives its exercises "
        f"{lesson.exercise_minutes}")


@pytest.mark.parametrize("lesson", manifest.lessons(), ids=lambda lesson: lesson.number)
def test_stated_teaching_minutes_fit_the_lesson(lesson, request):
    if lesson.number in PENDING:
        request.applymarker(pytest.mark.xfail(strict=True, reason="issue 20: lesson not yet within its minutes"))
    found = manifest.estimate(nbformat.read(lesson.notebook(ROOT), as_version=4))
    assert lesson.teaching <= MOST_MINUTES, f"lesson {lesson.number}: {lesson.teaching} min of teaching; split or cut it"
    assert lesson.teaching >= LEAST_SHARE * found.minutes, (
        f"lesson {lesson.number}: states {lesson.teaching} min, estimate {found.minutes:.1f} min "
        f"({found.lesson}): cut it or state at least {LEAST_SHARE:.0%} of that")
    assert lesson.teaching <= MOST_SHARE * found.minutes, (
        f"lesson {lesson.number}: states {lesson.teaching} min, estimate {found.minutes:.1f} min: overstated")


@pytest.mark.parametrize("lesson", manifest.lessons(), ids=lambda lesson: lesson.number)
def test_one_figure_for_a_lessons_teaching_minutes_everywhere(lesson):
    """Walkthrough 3, N-K4: the README said 22 + 5 for lesson 00 where the guide scheduled 27 (its notebook's
    estimate). lessons.toml's teaching minutes are at least the estimate, so the guide's schedules, `course
    lessons`, the README's table and the student README's all give the same figure."""
    import math

    from course_lib.workbook import guide, release

    found = manifest.estimate(nbformat.read(lesson.notebook(ROOT), as_version=4))
    assert lesson.teaching >= math.ceil(found.minutes), (
        f"lesson {lesson.number}: its notebook's estimate is {math.ceil(found.minutes)} min; raise its teaching "
        f"minutes in lessons.toml (and the README's table) from {lesson.teaching}")
    assert guide.teaching(lesson, ROOT) == lesson.teaching
    assert manifest.readme_row(lesson) in (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"| {lesson.teaching} + {lesson.exercise_minutes} |" in release.student_readme()
