"""Lesson 00-02 checkers: every rule is stated in its exercise text; the schema and prose helpers judge meaning."""

from __future__ import annotations


import pytest

from course_lib import review
from course_lib.checks import l00, l01, l02, schemas

STATED = {"00_start_here": [l00.RULES_0_1], "01_bad_tool_rewrite": [l01.RULES_1_1, l01.RULES_1_2, l01.RULES_1_3,
                                                                     l01.RULES_1_4],
          "02_results_host_can_use": [l02.RULES_2_1, l02.RULES_2_2, l02.RULES_2_3]}


def test_ref_and_exclusive_bounds_are_read_by_meaning():
    root = {"$defs": {"Units": {"enum": ["metric", "imperial"], "type": "string"}},
            "properties": {"units": {"$ref": "#/$defs/Units", "default": "metric"}}}
    units = schemas.resolve(root["properties"]["units"], root)
    assert sorted(schemas.choices(units)) == ["imperial", "metric"] and units["default"] == "metric"
    assert schemas.int_bounds({"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 8}) == (1, 7)
    assert schemas.int_bounds({"type": "integer", "minimum": 1, "maximum": 7}) == (1, 7)
    assert schemas.types({"anyOf": [{"type": "string"}, {"type": "null"}]}) == {"string", "null"}


@pytest.mark.parametrize("text, limits", [
    ("This tool does not convert times, and it is never the right tool for past dates", True),
    ("There is no time question you should not use it for", False),
    ("Do not hesitate to call it for any time question", False),
    ("Avoid it for past times", True),
])
def test_a_limit_is_judged_by_role(text, limits):
    assert review.limits_use(text) is limits


@pytest.mark.parametrize("name, ok", [("get_local_time", True), ("lookUpLocalTime", True), ("show-local-time", True),
                                      ("provide_local_time", True), ("local_time", False), ("time", False)])
def test_verb_object_names_in_any_casing(name, ok):
    assert review.is_verb_object(name) is ok
