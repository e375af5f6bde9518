"""The exercise id: one grammar, every derived name asked of it."""

from __future__ import annotations

import pytest

from course_lib.errors import UnknownName
from course_lib.workbook.ids import ExerciseId, lesson_code


@pytest.mark.parametrize("text", ["1.2", "01.2", " 1.2 "])
def test_parse_accepts_the_written_forms(text):
    assert ExerciseId.parse(text) == ExerciseId(1, 2)


@pytest.mark.parametrize("text", ["1", "1.", ".2", "1.2.3", "a.b", "1,2", "123.1", "", "ex_01_2"])
def test_parse_refuses_anything_else_with_the_form_it_wants(text):
    with pytest.raises(UnknownName, match="ids look like 1.2"):
        ExerciseId.parse(text)


def test_every_derived_name_comes_from_the_id():
    exercise = ExerciseId(6, 3)
    assert (str(exercise), exercise.lesson_code, exercise.checker_name) == ("6.3", "06", "ex_06_3")
    assert exercise.hint_call == 'hints.show("6.3")'
    assert exercise.answer_file("chars_over_four") == "ex_06_3_chars_over_four.py"
    assert ExerciseId.from_checker("ex_06_3") == exercise and ExerciseId.from_checker("ex_6_3") is None
    assert ExerciseId.from_answer_file("ex_06_3_chars_over_four") == (exercise, "chars_over_four")
    assert ExerciseId.from_answer_file("ex_06_3") is None


def test_ids_sort_by_lesson_then_number():
    assert sorted(map(ExerciseId.parse, ["10.1", "2.10", "2.9", "0.1"])) == [
        ExerciseId(0, 1), ExerciseId(2, 9), ExerciseId(2, 10), ExerciseId(10, 1)]


@pytest.mark.parametrize("given, code", [(1, "01"), ("1", "01"), ("06", "06"), (12, "12")])
def test_lesson_code(given, code):
    assert lesson_code(given) == code


def test_lesson_code_refuses_non_numbers():
    with pytest.raises(UnknownName, match="lesson numbers look like 01"):
        lesson_code("one")
