"""The lesson manifest matches the course folder, and names exactly what is missing when it does not."""

from __future__ import annotations

import shutil

import pytest

from conftest import ROOT
from course_lib.errors import UnknownName
from course_lib.workbook import completeness, manifest
from course_lib.workbook.ids import ExerciseId


def test_the_course_has_every_part_the_manifest_lists():
    assert completeness.missing_parts(ROOT) == []


@pytest.fixture
def course_copy(tmp_path):
    """The parts of the course folder the manifest describes, copied so they can be broken."""
    for folder in ("notebooks", "exercises", "solutions", "tests/answers"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    shutil.copy(ROOT / "README.md", tmp_path / "README.md")
    return tmp_path


def test_a_removed_lesson_file_is_named(course_copy):
    (course_copy / "exercises" / "03_two_kinds_of_failure.ipynb").unlink()
    assert completeness.missing_parts(course_copy) == ["lesson 03: exercises/03_two_kinds_of_failure.ipynb is missing"]


def test_a_removed_kept_answer_an_unlisted_notebook_and_a_stale_readme_row_are_named(course_copy):
    for path in (course_copy / "tests/answers/wrong").glob("ex_04_1_*.py"):
        path.unlink()
    shutil.copy(course_copy / "notebooks" / "00_start_here.ipynb", course_copy / "notebooks" / "07_untrusted.ipynb")
    readme = course_copy / "README.md"
    lesson = manifest.lesson("02")
    row = f"| 02 | {lesson.title} | {lesson.teaching} min |"
    assert row in readme.read_text()
    readme.write_text(readme.read_text().replace(row, f"| 02 | Results | {lesson.teaching} min |"))
    problems = completeness.missing_parts(course_copy)
    assert "notebooks/07_untrusted.ipynb is not in the manifest (course_lib/workbook/lessons.toml)" in problems
    assert "exercise 4.1: 0 kept wrong answer(s) in tests/answers/wrong, at least 3 needed" in problems
    assert any(line.startswith("lesson 02: README.md lacks the lesson-table row") for line in problems)
    assert len(problems) == 3


def test_lessons_are_in_order_and_own_their_exercises():
    numbers = [found.number for found in manifest.lessons()]
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers)
    for found in manifest.lessons():
        assert all(exercise.lesson_code == found.number for exercise in found.exercises)
    assert manifest.lesson_of("5.2").stem == "05_safe_mutation_incidents"
    assert manifest.lesson("6").checker_module == "course_lib.checks.l06"


@pytest.mark.parametrize("wrong, says", [("1.9", "there is no exercise 1.9; lesson 01 has 1.1, 1.2, 1.3, 1.4"),
                                         ("42.1", "there is no lesson 42"), ("x.1", "not an exercise id")])
def test_unknown_exercises_are_named(wrong, says):
    with pytest.raises(UnknownName, match=says):
        manifest.lesson_of(wrong)


def test_exercise_ids_come_from_the_manifest_in_course_order():
    ids = manifest.exercise_ids()
    assert ids == sorted(ids) and ids[0] == ExerciseId(0, 1) and len(ids) == len(set(ids))


def test_the_manifest_imports_no_checker_and_no_hint_not_even_late():
    """checks and hints import the manifest; the manifest importing them back was a cycle (now in completeness)."""
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(manifest))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)} | {
        alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    named = {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for alias in node.names}
    assert not {"course_lib.checks", "course_lib.hints"} & imported and not {"checks", "hints"} & named


def test_no_course_module_imports_the_completeness_check_so_it_may_import_them_all():
    import ast
    import pathlib

    def imports_it(path: pathlib.Path) -> bool:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and ((node.module or "").endswith("completeness")
                                                     or "completeness" in {a.name for a in node.names}):
                return True
            if isinstance(node, ast.Import) and any(a.name.endswith("completeness") for a in node.names):
                return True
        return False

    package = pathlib.Path(completeness.__file__).resolve().parents[1]
    assert [path.name for path in package.rglob("*.py") if imports_it(path)] == []
