"""Stated minutes a learner can meet: each lesson's teaching minutes against its estimate from the notebook."""

from __future__ import annotations

import nbformat
import pytest

from conftest import ROOT
from course_lib.workbook import manifest

LEAST_SHARE = 0.8
"""Stated teaching minutes are at least this share of the estimate (words at 130/min, 1.5 min per code cell)."""
MOST_MINUTES = 50
PENDING = {"08"}
"""Lessons not yet brought within their minutes (issue 20); each leaves this set when it fits (strict xfail)."""


def test_estimate_counts_words_code_cells_and_a_separate_appendix():
    cell = nbformat.v4
    notebook = cell.new_notebook(cells=[
        cell.new_markdown_cell("# Title\n\none two three"),  # 5 words
        cell.new_code_cell("x = 1"), cell.new_code_cell("   "),  # an empty code cell is nothing to run
        cell.new_markdown_cell(" ".join(["word"] * 255)),
        cell.new_code_cell("y = 2"),
        cell.new_markdown_cell("## Appendix: optional\n\nfour more words here"),  # 7 words, optional
        cell.new_code_cell("z = 3"),
    ])
    found = manifest.estimate(notebook)
    assert (found.words, found.code_cells, found.appendix_words, found.appendix_code_cells) == (260, 2, 7, 1)
    assert found.minutes == pytest.approx(260 / 130 + 3.0)
    assert found.appendix_minutes == pytest.approx(7 / 130 + 1.5)


@pytest.mark.parametrize("lesson", manifest.lessons(), ids=lambda lesson: lesson.number)
def test_stated_teaching_minutes_fit_the_lesson(lesson, request):
    if lesson.number in PENDING:
        request.applymarker(pytest.mark.xfail(strict=True, reason="issue 20: lesson not yet within its minutes"))
    found = manifest.estimate(nbformat.read(lesson.notebook(ROOT), as_version=4))
    assert lesson.teaching <= MOST_MINUTES, f"lesson {lesson.number}: {lesson.teaching} min of teaching; split or cut it"
    assert lesson.teaching >= LEAST_SHARE * found.minutes, (
        f"lesson {lesson.number}: states {lesson.teaching} min, estimate {found.minutes:.1f} min "
        f"({found.words} words, {found.code_cells} code cells): cut it or state at least {LEAST_SHARE:.0%} of that")
