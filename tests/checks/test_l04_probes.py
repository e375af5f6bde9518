"""Lesson 04's checkers: no answer key to import."""

from __future__ import annotations

from course_lib.checks import l04


def test_no_answer_key_is_importable():
    assert not hasattr(l04, "TRUTH") and not hasattr(l04, "SCENARIO")
    assert not any(isinstance(value, dict) and "get_service_status" in value for value in vars(l04).values())
