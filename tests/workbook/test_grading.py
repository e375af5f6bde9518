"""`course grade`: a class folder with solved, unsolved, wrong, broken and hanging notebooks."""

from __future__ import annotations

import csv
import shutil
import subprocess
import sys

import nbformat

from conftest import ROOT


def test_grade_tabulates_every_student_and_survives_bad_submissions(tmp_path):
    klass = tmp_path / "class"
    for student in ("ada", "bob", "cy", "dee", "eve"):
        (klass / student).mkdir(parents=True)
    shutil.copy(ROOT / "exercises/01_bad_tool_rewrite.ipynb", klass / "ada")
    shutil.copy(ROOT / "solutions/01_bad_tool_rewrite.ipynb", klass / "bob")
    (klass / "cy" / "01_bad_tool_rewrite.ipynb").write_text("{ not json")
    wrong = nbformat.read(ROOT / "solutions/01_bad_tool_rewrite.ipynb", as_version=4)
    cell = next(c for c in wrong.cells if "def is_valid_tool_name" in c.source)
    cell.source = cell.source.replace('r"[A-Za-z0-9_.-]{1,128}"', 'r"[\\w.-]+"')
    nbformat.write(wrong, klass / "dee" / "01_bad_tool_rewrite.ipynb")
    shutil.copy(ROOT / "solutions/00_start_here.ipynb", klass / "eve")

    result = subprocess.run([sys.executable, "-m", "course_lib.cli", "grade", str(klass)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    with (klass / "grades.csv").open(encoding="utf-8") as table:
        rows = {(r["student"], r["exercise"]): r["status"] for r in csv.DictReader(table)}
    assert [rows[("ada", f"1.{n}")] for n in range(1, 5)] == ["not done"] * 4
    assert [rows[("bob", f"1.{n}")] for n in range(1, 5)] == ["passed"] * 4
    assert rows[("cy", "*")] == "unreadable"
    assert [rows[("dee", f"1.{n}")] for n in range(1, 5)] == ["passed", "passed", "passed", "failed"]
    assert rows[("eve", "0.1")] == "passed"
    page = (klass / "grades.html").read_text(encoding="utf-8")
    assert "<th>bob</th>" in page and "4/4" in page and "whole notebook" in page
    assert result.stdout.splitlines()[0].split() == ["student", "0.1", "1.1", "1.2", "1.3", "1.4", "*"]


def test_a_hanging_notebook_costs_only_its_own_row(tmp_path):
    from course_lib.workbook import grading

    hang = nbformat.read(ROOT / "solutions/00_start_here.ipynb", as_version=4)
    hang.cells.insert(1, nbformat.v4.new_code_cell("import time\ntime.sleep(600)"))
    nbformat.write(hang, tmp_path / "00_start_here.ipynb")
    (row,) = grading.grade_one("eve", tmp_path / "00_start_here.ipynb", timeout=3)
    assert (row.outcome.exercise, row.outcome.status, row.outcome.message) == ("*", "timeout", "no result within 3 s")
