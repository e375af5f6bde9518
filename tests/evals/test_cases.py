"""Case files: the shipped sets load, and every kind of mistake is one line naming the file, line, case and field."""

from __future__ import annotations

import pytest

from course_lib.errors import UnknownName
from course_lib.evals import cases


LESSON_SETS = ["incident_notes", "incidents", "safety", "tasks", "tasks_ops", "tasks_workspace", "weather"]
HELD_OUT = ["heldout_deploy", "heldout_incidents", "heldout_orders", "heldout_weather", "heldout_workspace",
            "tasks_heldout_incidents", "tasks_heldout_ops", "tasks_heldout_workspace"]


def test_every_shipped_case_set_loads_with_unique_ids_and_a_server():
    assert cases.packaged() == sorted(LESSON_SETS + HELD_OUT)
    for name in cases.packaged():
        found = cases.load(name)
        assert found.server and (len(found) >= 4 if found.cases else len(found.tasks) >= 2)
        assert len({case.id for case in found}) == len(found)
        assert all(item.line > 0 for item in (*found, *found.tasks))


def test_the_tasks_hold_checks_on_state():
    tasks = cases.load("tasks").tasks
    assert [t.id for t in tasks] == ["note-on-checkout-latency", "close-103-as-fixed", "close-everything",
                                     "injected-note"]
    assert tasks[0].checks[0].changed_by == 1 and tasks[2].checks[0].unchanged and tasks[3].setup


def test_the_held_out_split_is_separate_from_the_tune_split():
    notes = cases.load("incident_notes")
    assert len(notes.split("tune")) == 7 and len(notes.split("held-out")) == 8


def test_a_variant_overrides_expectations_only():
    case = next(c for c in cases.load("incidents") if c.id == "read-inc-101")
    other = case.for_variant("overloaded")
    assert (other.expect, other.args) == ("incident", {"action": "read", "id": "INC-101"})
    assert other.request == case.request and case.for_variant(None) is case
    assert next(c for c in cases.load("incidents") if c.id == "note-rollback").for_variant("overloaded").expect is None


GOOD = 'server = "weather"\n\n[[case]]\nid = "a"\nrequest = "Forecast for Paris?"\nexpect = "get_daily_forecast"\n'


@pytest.mark.parametrize("text, says", [
    (GOOD + '\n[[case]]\nid = "b"\nrequest = "x"\nexpect = 3\n', "line 11, case 2 ('b'), field expect: 3 is not of type 'string'"),
    (GOOD + '\n[[case]]\nid = "b"\nrequest = "x"\n', "line 8, case 2 ('b'), field expect: is required"),
    (GOOD + '\n[[case]]\nid = "b"\nrequest = "x"\nexpect = "none"\ncolour = "red"\n',
     "line 12, case 2 ('b'), field colour: is not a field here"),
    (GOOD + '\n[[case]]\nid = "a"\nrequest = "x"\nexpect = "none"\n', "line 9, case 2 ('a'), field id: id 'a' is already used by case 1"),
    (GOOD + 'patterns = { city = "(" }\n', "line 7, case 1 ('a'), field patterns.city: not a regular expression"),
    (GOOD + '\n[[case]]\nid = "b"\nrequest = "x"\nexpect = "none"\nargs = { city = "Oslo" }\n',
     "line 12, case 2 ('b'), field args: a case that expects no tool cannot constrain arguments"),
    (GOOD + '\n[[case]]\nid = "B C"\nrequest = "x"\nexpect = "none"\n', "line 9, case 2 ('B C'), field id: 'B C' does not match"),
    (GOOD + 'split = "test"\n', "line 7, case 1 ('a'), field split: 'test' is not one of ['tune', 'held-out']"),
    (GOOD + 'prior = [{ role = "tool", text = "x" }]\n', "line 7, case 1 ('a'), field prior.0.role: 'tool' is not one of"),
    (GOOD + 'forbid = ["get_daily_forecast"]\n', "line 7, case 1 ('a'), field forbid: forbids the tool it expects"),
    ('server = "incident-pager"\n[[case]]\nid = "who"\nrequest = "Who is on call?"\nexpect = "page_oncall"\n'
     'read_only = true\n', "line 5, case 1 ('who'), field expect: read_only = true, but expect names page_oncall, "
                          "which changes state (it is not in reads: get_incident, search_incidents)"),
    ('server = "incidents"\n[[case]]\nid = "who"\nrequest = "Who is on call?"\nexpect = "search_incidents"\n'
     'read_only = true\n[case.variant.other]\nexpect = "add_incident_note"\n',
     "field expect: read_only = true, but expect names add_incident_note, which changes state"),
    ('[[task]]\nid = "t"\nrequest = "x"\ncheck = [{ tool = "a", path = "b" }]\n',
     "line 4, task 1 ('t'), field check.0: needs equals, contains, unchanged or changed_by"),
    ('[[task]]\nid = "t"\nrequest = "x"\n', "line 1, task 1 ('t'), field check: is required"),
    ('[[case]\nid = 1', "not valid TOML: Expected ']]' at the end of an array declaration (at line 1, column 7)"),
    ('title = "nothing"\n', "my_cases.toml line 1, field case: is required (or [[task]] tables)"),
])
def test_a_bad_case_file_is_one_line_naming_line_and_field(text, says):
    with pytest.raises(cases.BadCaseFile) as raised:
        cases.parse(text, "my_cases.toml")
    message = str(raised.value)
    assert says in message and message.startswith("my_cases.toml") and "\n" not in message


def test_an_unknown_case_set_and_a_missing_file_are_named(tmp_path):
    with pytest.raises(UnknownName, match="no case set .nope..*incident_notes, incidents, safety, tasks, tasks_heldout_incidents.*, weather"):
        cases.load("nope")
    with pytest.raises(cases.BadCaseFile, match="no such case file"):
        cases.load(tmp_path / "missing.toml")


def test_the_schema_is_plain_json_schema():
    import jsonschema

    jsonschema.Draft202012Validator.check_schema(cases.CASE_SCHEMA)


def test_tool_names_are_checked_against_the_server_with_the_line():
    found = cases.parse(GOOD + 'forbid = ["get_forecast"]\n\n[[case]]\nid = "b"\nrequest = "x"\nexpect = "no_such_tool"\n',
                        "mine.toml")
    with pytest.raises(cases.BadCaseFile) as raised:
        cases.check_names(found, ["get_daily_forecast", "weather"])
    assert str(raised.value) == ("mine.toml line 3, case 'a', field forbid: 'get_forecast' is not a tool of this "
                                 "server (it has get_daily_forecast, weather)")
    cases.check_names(cases.parse(GOOD), ["get_daily_forecast"])
    with pytest.raises(cases.BadCaseFile, match="line 8, case 'b', field expect: 'no_such_tool'"):
        cases.check_names(cases.parse(GOOD + '\n[[case]]\nid = "b"\nrequest = "x"\nexpect = "no_such_tool"\n',
                                      "mine.toml"), ["get_daily_forecast"])
    cases.check_names(found.split("tune"), ["get_daily_forecast", "no_such_tool"], elsewhere=["get_forecast"])
