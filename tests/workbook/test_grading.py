"""`course grade`: a class folder with solved, half-solved, unsolved, wrong, broken and looping notebooks.

The statuses are the ones the grader gave before the grading boundary existed (kept here as literals):
honest work grades exactly as before. The one change: an endless loop in one exercise's answer costs that
exercise (timeout), no longer the whole notebook's row.
"""

from __future__ import annotations

import csv
import datetime
import re
import shutil
import subprocess
import sys

import nbformat

from conftest import ROOT
from course_lib.workbook import grading
from course_lib.workbook.outcomes import Outcome

LESSON = "01_bad_tool_rewrite.ipynb"


def _exercise(notebook, exercise: str):
    return next(cell for cell in notebook.cells if cell.metadata.get("exercise", {}).get("id") == exercise)


def test_grade_tabulates_every_student_and_survives_bad_submissions(tmp_path):
    klass = tmp_path / "class"
    for student in ("ada", "bob", "cy", "dee", "eve", "fay", "gus"):
        (klass / student).mkdir(parents=True)
    shutil.copy(ROOT / "exercises" / LESSON, klass / "ada")
    shutil.copy(ROOT / "solutions" / LESSON, klass / "bob")
    (klass / "cy" / LESSON).write_text("{ not json")
    wrong = nbformat.read(ROOT / "solutions" / LESSON, as_version=4)
    cell = next(c for c in wrong.cells if "def is_valid_tool_name" in c.source)
    cell.source = cell.source.replace('r"[A-Za-z0-9_.-]{1,128}"', 'r"[\\w.-]+"')
    nbformat.write(wrong, klass / "dee" / LESSON)
    shutil.copy(ROOT / "solutions/00_start_here.ipynb", klass / "eve")
    half = nbformat.read(ROOT / "solutions" / LESSON, as_version=4)
    unsolved = nbformat.read(ROOT / "exercises" / LESSON, as_version=4)
    for exercise in ("1.2", "1.3"):
        _exercise(half, exercise).source = _exercise(unsolved, exercise).source
    nbformat.write(half, klass / "fay" / LESSON)
    loop = nbformat.read(ROOT / "solutions" / LESSON, as_version=4)
    _exercise(loop, "1.4").source = "def is_valid_tool_name(name: str) -> bool:\n    while True:\n        pass\n"
    nbformat.write(loop, klass / "gus" / LESSON)

    result = subprocess.run([sys.executable, "-m", "course_lib.cli", "grade", str(klass), "--timeout", "40",
                             "--root", str(ROOT)], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    with (klass / "grades.csv").open(encoding="utf-8") as table:
        rows = {(r["student"], r["exercise"]): r["status"] for r in csv.DictReader(table)}
    assert [rows[("ada", f"1.{n}")] for n in range(1, 5)] == ["not done"] * 4
    assert [rows[("bob", f"1.{n}")] for n in range(1, 5)] == ["passed"] * 4
    assert rows[("cy", "*")] == "unreadable"
    assert [rows[("dee", f"1.{n}")] for n in range(1, 5)] == ["passed", "passed", "passed", "failed"]
    assert rows[("eve", "0.1")] == "passed"
    assert [rows[("fay", f"1.{n}")] for n in range(1, 5)] == ["passed", "not done", "not done", "passed"]
    assert [rows[("gus", f"1.{n}")] for n in range(1, 5)] == ["passed", "passed", "passed", "timeout"]
    page = (klass / "grades.html").read_text(encoding="utf-8")
    assert '<th><a href="#student-bob">bob</a></th>' in page and "4/5" in page and "whole notebook" in page
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["student", "0.1", "1.1", "1.2", "1.3", "1.4", "*", "passed"]
    cy = next(line for line in lines if line.startswith("cy "))
    assert cy.split()[-1] == "0/5"  # a broken notebook still owes its exercises: every lesson's, as everyone
    assert any(line.strip().startswith("* column:") for line in lines)
    assert any(line.strip().startswith("· no result") for line in lines)
    # Walkthrough 5, N7: the class's totals per exercise, as grades.html has them, in the terminal and a CSV of
    # their own (grades.csv stays one row per student and exercise); counted here from grades.csv.
    students = sorted({student for student, _ in rows})
    exercises = ["0.1", "1.1", "1.2", "1.3", "1.4"]
    passed = {e: sum(rows.get((student, e)) == "passed" for student in students) for e in exercises}
    assert next(line for line in lines if line.startswith("class passed")).split()[2:] == [
        f"{passed[e]}/{len(students)}" for e in exercises]
    assert next(line for line in lines if line.startswith("pass rate")).split()[2:] == [
        f"{100 * passed[e] / len(students):.0f}%" for e in exercises]
    with (klass / "grades_totals.csv").open(encoding="utf-8") as table:
        assert [(r["exercise"], int(r["passed"]), int(r["students"]), r["pass_rate_percent"])
                for r in csv.DictReader(table)] == [
            (e, passed[e], len(students), f"{100 * passed[e] / len(students):.0f}") for e in exercises]
    assert "class" not in {student for student, _ in rows}  # no totals row among the students'


def test_a_hanging_notebook_costs_only_its_own_row(tmp_path):
    hang = nbformat.read(ROOT / "solutions/00_start_here.ipynb", as_version=4)
    hang.cells.insert(1, nbformat.v4.new_code_cell("import time\ntime.sleep(600)"))
    nbformat.write(hang, tmp_path / "00_start_here.ipynb")
    (row,) = grading.grade_one("eve", tmp_path / "00_start_here.ipynb", timeout=3, root=ROOT)
    assert (row.outcome.exercise, row.outcome.status, row.outcome.message) == ("*", "timeout", "no result within 3 s")


def test_a_file_that_is_no_notebook_of_the_course_is_unreadable_by_name(tmp_path):
    nbformat.write(nbformat.v4.new_notebook(), tmp_path / "homework.ipynb")
    (row,) = grading.grade_one("eve", tmp_path / "homework.ipynb", timeout=60, root=ROOT)
    assert (row.outcome.exercise, row.outcome.status) == ("*", "unreadable")
    assert row.outcome.message == ("homework.ipynb is not an exercise notebook of this course (expected a name like "
                                   "01_bad_tool_rewrite.ipynb)")


def test_grades_html_has_a_legend_visible_reasons_the_lesson_and_the_date(tmp_path):
    rows = [grading.Row("ada", LESSON, Outcome("1.1", "failed", "Exercise 1.1: expected <b>x</b>; found y.")),
            grading.Row("ada", LESSON, Outcome("1.2", "passed", "fine")),
            grading.Row("cy", LESSON, Outcome("*", "unreadable", "not JSON"))]
    grading.write_html(rows, tmp_path / "grades.html", "sandbox: bubblewrap (...)", datetime.date(2026, 3, 9))
    page = (tmp_path / "grades.html").read_text(encoding="utf-8")
    assert "<h1>Exercise results: lesson 01 (A bad tool and its rewrite), graded 2026-03-09</h1>" in page
    assert "<small>Exercise 1.1: expected &lt;b&gt;x&lt;/b&gt;; found y.</small>" in page  # shown, escaped
    assert "title=" not in page  # nothing hidden behind a hover
    assert "<td class='score'>1/4</td>" in page and "<td class='score'>0/4</td>" in page
    assert "<h2>Legend</h2>" in page and "📝 <b>edit</b> (edited):" in page and "💥 <b>died</b> (kernel died):" in page
    assert "sandbox: bubblewrap" in page


def test_grades_html_has_short_codes_class_totals_and_one_section_per_student(tmp_path):
    todo = ("Exercise 1.2 is not done yet: register get_daily_forecast. Replace `raise NotImplementedError(...)` "
            "with your code, run that cell, then run this check again.")
    rows = [grading.Row("ada", LESSON, Outcome("1.1", "failed", "Exercise 1.1: expected a `city` parameter; found none.")),
            grading.Row("ada", LESSON, Outcome("1.2", "not done", todo)),
            grading.Row("bo b", LESSON, Outcome("1.1", "passed", "fine")),
            grading.Row("bo b", LESSON, Outcome("1.2", "passed", "fine")),
            grading.Row("cy", LESSON, Outcome("1.1", "passed", "fine"))]
    grading.write_html(rows, tmp_path / "grades.html", "", datetime.date(2026, 3, 9))
    page = (tmp_path / "grades.html").read_text(encoding="utf-8")
    table, legend = page.split("<h2>Legend</h2>")[0], page.split("<h2>Legend</h2>")[1].split("</ul>")[0]
    assert '<td class="failed"><a href="#student-ada">❌ fail</a></td>' in table
    assert '<td class="not-done"><a href="#student-ada">⏳ todo</a></td>' in table
    assert "not done yet" not in table and "`" not in page  # reasons live in the sections, code as code
    assert "<td class='total'>2/3 (67%)</td>" in table and "<td class='total'>1/3 (33%)</td>" in table  # of all
    assert "<li>⏳ <b>todo</b> (not done): the answer is still the stub" in legend
    assert "<li>📝 <b>edit</b> (edited): the check cell was changed" in legend
    sections = page.split("<h2>Each student</h2>")[1]
    assert [s.split('"')[0] for s in sections.split('<section id="')[1:]] == [
        "student-ada", "student-bo-b", "student-cy"]
    assert '<a href="#student-bo-b">bo b</a>' in table
    assert "expected a <code>city</code> parameter" in sections
    assert "register get_daily_forecast.</small>" in sections and "Replace" not in sections


def test_grades_csv_and_html_tell_graders_the_reason_without_the_steps_a_learner_is_told(tmp_path):
    from course_lib.workbook.outcomes import SYMBOLS

    said = {"1.1": ("failed", 'Exercise 1.1: expected a `city` parameter; found none. Open hints.show("1.1") for a hint.'),
            "1.2": ("not done", "Exercise 1.2 is not done yet: register get_daily_forecast. Replace `raise "
                                "NotImplementedError(...)` with your code, run that cell, then run this check again."),
            "1.3": ("failed", "Exercise 1.3: the cell above the check raised SyntaxError: invalid syntax, so f is not "
                              "defined: fix that cell, run it, then run the check again."),
            "1.4": ("not done", "Exercise 1.4: run the exercise cell above first (is_valid_tool_name is not defined yet).")}
    rows = [grading.Row("ada", LESSON, Outcome(exercise, status, message)) for exercise, (status, message) in said.items()]
    grading.write_csv(rows, tmp_path / "grades.csv")
    grading.write_html(rows, tmp_path / "grades.html", "", datetime.date(2026, 3, 9))
    with (tmp_path / "grades.csv").open(encoding="utf-8") as table:
        details = {r["exercise"]: r["detail"] for r in csv.DictReader(table)}
    assert details == {"1.1": "Exercise 1.1: expected a `city` parameter; found none.",
                       "1.2": "Exercise 1.2 is not done yet: register get_daily_forecast.",
                       "1.3": "Exercise 1.3: the cell above the check raised SyntaxError: invalid syntax, so f is not "
                              "defined.",
                       "1.4": "Exercise 1.4: is_valid_tool_name was not defined when the check ran."}
    page = (tmp_path / "grades.html").read_text(encoding="utf-8")
    for words in ("hints.show", "again", "Replace", "run the exercise cell"):
        assert words not in page
    assert SYMBOLS["not done"] == "⏳" and SYMBOLS["timeout"] not in ("⏳", "⌛")  # two hourglasses look alike
    assert len(set(SYMBOLS.values())) == len(SYMBOLS)


def test_an_autograder_that_names_no_lesson_says_so_not_an_empty_lesson_name(tmp_path):
    """Red team rtgrade6: a bare Gradescope `--run` (an autograder whose lessons file names none) ignored the
    notebook with "not a notebook of lesson , which this assignment grades". It says what is missing instead."""
    folder = tmp_path / "submission"
    folder.mkdir()
    shutil.copy(ROOT / "solutions" / "01_bad_tool_rewrite.ipynb", folder / "01_bad_tool_rewrite.ipynb")
    report = grading.Report()
    rows = grading.grade(folder, timeout=60, jobs=1, root=ROOT, lessons=set(), report=report, student="submission")
    assert not any(row.outcome.status == "passed" for row in rows)
    assert report.ignored == ["ignored 01_bad_tool_rewrite.ipynb: this autograder names no lesson to grade (the "
                              "instructor builds it with `course autograder gradescope --lesson NN`)"], report.ignored
    assert not any("lesson ," in line for line in report.ignored)


def test_grades_html_lists_each_broken_rule_of_a_reason_on_its_own(tmp_path):
    """walk4 M5: three broken rules read as one run-on paragraph with inline bullets."""
    message = ("Exercise 1.1: the first 3 things to fix (a run stops at 3, so there may be more):\n"
               "• Expected a `name`; found 'x'.\n• Expected a description; found ''.\n"
               "• Expected a <b>city</b>; found none. Open hints.show(\"1.1\") for a hint.")
    rows = [grading.Row("ada", LESSON, Outcome("1.1", "failed", message))]
    grading.write_html(rows, tmp_path / "grades.html", "", datetime.date(2026, 3, 9))
    page = (tmp_path / "grades.html").read_text(encoding="utf-8")
    reason = page.split("<h2>Each student</h2>")[1].split("<small>")[1].split("</small>")[0]
    lead, items = reason.split("<ul", 1)
    assert lead == "Exercise 1.1: the first 3 things to fix (a run stops at 3, so there may be more):"
    assert re.findall(r"<li>(.*?)</li>", items) == [
        "Expected a <code>name</code>; found &#x27;x&#x27;.", "Expected a description; found &#x27;&#x27;.",
        "Expected a &lt;b&gt;city&lt;/b&gt;; found none."]
    assert "•" not in reason and "hints.show" not in reason


def test_a_notebook_with_none_of_the_lessons_cells_is_not_handed_in_not_edited(tmp_path):
    """Walkthrough 5, M2: a notebook with no cells (`{"cells": []}`, as the walkthrough handed it in) graded 📝
    edited four times, "put the course's check cell back". It is nothing handed in: 0 points, as before, and no
    word of edits; a notebook with other cells but none of the lesson's exercise cells says so."""
    import json

    for student, cells, says in (("dan", [], "is empty (no cells): nothing handed in for exercise 1."),
                                 ("eli", [nbformat.v4.new_markdown_cell("my notes")],
                                  "holds none of the lesson's exercise cells: nothing handed in for exercise 1.")):
        path = tmp_path / student / LESSON
        path.parent.mkdir()
        path.write_text(json.dumps({"cells": cells}) if not cells else nbformat.writes(
            nbformat.v4.new_notebook(cells=cells)), encoding="utf-8")
        rows = grading.grade_one(student, path, timeout=60, root=ROOT)
        assert [(row.outcome.exercise, row.outcome.status) for row in rows] == [  # noqa
            (f"1.{n}", "not handed in") for n in range(1, 5)], rows
        assert all(says in row.outcome.message and "edit" not in row.outcome.message for row in rows), rows
        assert grading.scores(rows) == {student: (0, 4)}


def test_a_graders_reason_for_an_edited_check_has_one_full_stop_per_sentence():
    """Walkthrough 5, N1: grades read "(not done: Exercise 1.1: build_clock_server was not defined when the check
    ran.)." The learner's step is rewritten for the grader, and a full stop only where the message had one."""
    from course_lib.workbook.outcomes import for_grader

    inner = "Exercise 1.1: run the exercise cell above first (build_clock_server is not defined yet)."
    assert for_grader(inner) == "Exercise 1.1: build_clock_server was not defined when the check ran."
    edited = (f"the check cell was removed, so the course's check ran in its place (not done: {inner.rstrip('.')}). "
              "An edited check cell earns no credit: put the course's check cell back as it was.")
    said = for_grader(edited)
    assert "(not done: Exercise 1.1: build_clock_server was not defined when the check ran). An edited" in said, said
