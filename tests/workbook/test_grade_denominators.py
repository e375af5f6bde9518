"""`course grade`'s reports over one denominator (walkthrough 2, C1 and C2): every student gets a row per exercise
of the assignment (missing work: "not handed in", 0 points), a misnamed notebook in a student's folder is named
in grades.csv and grades.html (not only once in the terminal), and "passed" and the class row count every student.
"""

from __future__ import annotations

import csv
import shutil
import subprocess
import sys

from conftest import ROOT
from course_lib.workbook import grading
from course_lib.workbook.outcomes import Outcome

LESSON = "01_bad_tool_rewrite.ipynb"
START = "00_start_here.ipynb"


def test_every_student_gets_every_exercise_and_a_misnamed_notebook_is_reported(tmp_path):
    klass = tmp_path / "class"
    for student in ("alice", "carol", "erin"):
        (klass / student).mkdir(parents=True)
    shutil.copy(ROOT / "solutions" / LESSON, klass / "alice" / LESSON)
    shutil.copy(ROOT / "exercises" / START, klass / "carol" / START)
    shutil.copy(ROOT / "solutions" / START, klass / "erin" / START)
    shutil.copy(ROOT / "solutions" / LESSON, klass / "erin" / f"erin_{LESSON}")  # an LMS-style name
    result = subprocess.run([sys.executable, "-m", "course_lib.cli", "grade", str(klass), "--timeout", "60",
                             "--root", str(ROOT)], capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stderr
    with (klass / "grades.csv").open(encoding="utf-8", newline="") as table:
        found = list(csv.DictReader(table))
    status = {(r["student"], r["exercise"]): r["status"] for r in found}
    exercises = ["0.1", "1.1", "1.2", "1.3", "1.4"]
    for student in ("alice", "carol", "erin"):  # one row per exercise of the assignment, for everyone
        assert all((student, exercise) in status for exercise in exercises), student
    assert [status[("alice", e)] for e in exercises] == ["not handed in"] + ["passed"] * 4
    assert [status[("carol", e)] for e in exercises] == ["not done"] + ["not handed in"] * 4
    assert [status[("erin", e)] for e in exercises] == ["passed"] + ["not handed in"] * 4
    misnamed = [r for r in found if r["notebook"] == f"erin_{LESSON}"]
    assert [(r["student"], r["exercise"], r["status"], r["points"]) for r in misnamed] == \
        [("erin", "*", "misnamed", "")]
    assert misnamed[0]["detail"].startswith(f"not graded: rename it to {LESSON} and rerun the grading"), misnamed[0]
    points = {}
    for r in found:
        if r["exercise"] != "*":
            points.setdefault(r["student"], []).append(int(r["points"]))
    assert {student: (sum(p), len(p)) for student, p in points.items()} == {
        "alice": (4, 5), "carol": (0, 5), "erin": (1, 5)}  # a spreadsheet sum over one denominator
    page = (klass / "grades.html").read_text(encoding="utf-8")
    assert "<td class='score'>4/5</td>" in page and "<td class='score'>0/5</td>" in page
    assert "<td class='score'>1/5</td>" in page  # not 1/1: erin handed in no named lesson 01
    assert "<td class='total'>1/3 (33%)</td>" in page  # 0.1 and each of 1.x: one of the three students
    assert "<td class='total'>1/1" not in page and "(100%)" not in page
    assert page.count(f"erin_{LESSON}") >= 2  # her section and the "Not graded" list
    assert "<h2>Not graded</h2>" in page
    erin = next(line for line in result.stdout.splitlines() if line.startswith("erin "))
    assert erin.split()[-1] == "1/5"


def test_a_misnamed_notebook_has_a_status_of_its_own_that_says_what_to_do(tmp_path):
    """Walkthrough 3, N-K5: not "skipped" (whose legend blames an earlier problem in the notebook) but "misnamed",
    with the name to give it when a lesson's file name stands inside the one handed in."""
    report = grading.Report(students=["cat", "dan"], misnamed=[("cat", f"cat_{LESSON}"), ("dan", "homework.ipynb")])
    done = grading.complete([grading.Row("ann", LESSON, Outcome("1.1", "passed", ""))], report)
    whole = {r.student: r.outcome for r in done if r.outcome.exercise == "*"}
    assert whole["cat"].status == whole["dan"].status == "misnamed"
    assert whole["cat"].message.startswith(f"not graded: rename it to {LESSON} and rerun the grading")
    assert "rename it to NN_<lesson>.ipynb" in whole["dan"].message
    assert {r.outcome.status for r in done if r.student == "cat" and r.outcome.exercise != "*"} == {"not handed in"}
    page = tmp_path / "grades.html"
    grading.write_html(done, page, when=None)
    text = page.read_text(encoding="utf-8")
    assert "📛 <b>name</b> (misnamed): not graded" in text  # the legend says what the code means
    assert '<td class="misnamed status">📛 misnamed</td>' in text
    assert "td.status{white-space:nowrap}" in text  # a long reason never wraps a status beside it


def test_the_lessons_of_an_assignment_set_the_rows_when_named():
    rows = [grading.Row("ann", LESSON, Outcome("1.1", "passed", "")),
            grading.Row("cy", "cy.ipynb", Outcome("*", "unreadable", "not JSON"))]
    report = grading.Report(students=["ann", "bo", "cy"])
    done = grading.complete(rows, report, {"01", "07"})
    table = {(r.student, r.outcome.exercise): r.outcome.status for r in done}
    expected = ["1.1", "1.2", "1.3", "1.4", "7.1", "7.2", "7.3"]
    for student in ("ann", "bo", "cy"):
        assert [e for (who, e) in table if who == student and e != "*"] == expected, student
    assert table[("ann", "1.1")] == "passed" and table[("ann", "7.1")] == "not handed in"
    assert grading.scores(done) == {"ann": (1, 7), "bo": (0, 7), "cy": (0, 7)}


def test_an_exercise_of_a_notebook_that_could_not_be_checked_is_skipped_not_missing():
    rows = [grading.Row("cy", LESSON, Outcome("*", "timeout", "no result within 60 s")),
            grading.Row("ann", LESSON, Outcome("1.1", "passed", ""))]
    done = grading.complete(rows, grading.Report(students=["ann", "cy"]))
    table = {(r.student, r.outcome.exercise): r.outcome.status for r in done}
    assert [table[("cy", f"1.{n}")] for n in range(1, 5)] == ["skipped"] * 4
    assert [table[("ann", f"1.{n}")] for n in range(2, 5)] == ["not handed in"] * 3
