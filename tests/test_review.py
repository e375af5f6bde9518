"""The design review: every rule fires on a tool that breaks it and stays quiet on one that does not, and
`leaks()` is judged against a corpus written here, not against itself."""

from __future__ import annotations

import pytest

from course_lib import review

GOOD = {
    "name": "get_daily_forecast",
    "description": ("Daily high, low and conditions for one city. Use it for questions about the coming days. "
                    "Do not use it for past weather."),
    "inputSchema": {"type": "object", "properties": {
        "city": {"type": "string", "description": "City name."},
        "days": {"type": "integer", "minimum": 1, "maximum": 7, "description": "Days ahead."},
        "units": {"type": "string", "enum": ["metric", "imperial"]}}, "required": ["city"]},
    "outputSchema": {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "array"}}},
}


def changed(**fields) -> dict:
    """GOOD with some top-level fields replaced, or properties changed via `properties`."""
    tool = {**GOOD, "inputSchema": {**GOOD["inputSchema"], "properties": dict(GOOD["inputSchema"]["properties"])}}
    for key, value in fields.items():
        if key == "properties":
            tool["inputSchema"]["properties"].update(value)
        else:
            tool[key] = value
    return tool


def rules_of(tool: dict) -> set[str]:
    return {finding.rule for finding in review.review_tool(tool)}


def test_the_good_tool_has_no_findings():
    assert rules_of(GOOD) == set()


@pytest.mark.parametrize("rule, broken", [
    ("name-spec", changed(name="get daily forecast")),
    ("name-spec", changed(name="a" * 129)),
    ("name-intent", changed(name="weather")),
    ("name-intent", changed(name="forecast_get")),
    ("description-what", changed(description="Forecast.")),
    ("description-when", changed(description="Daily forecast for a city. It returns highs and lows. "
                                             "Do not use it for past weather.")),
    ("description-when-not", changed(description="Daily forecast for a city. Use it for the coming days.")),
    ("param-described", changed(properties={"city": {"type": "string"}})),
    ("param-enum", changed(properties={"units": {"type": "string", "description": "metric or imperial"}})),
    ("param-bounds", changed(properties={"days": {"type": "integer", "description": "Days ahead."}})),
    ("param-bounds", changed(properties={"days": {"type": "integer", "minimum": 1, "description": "Days."}})),
    ("output-structured", changed(outputSchema={"type": "object", "properties": {"result": {"type": "string"}}})),
])
def test_each_rule_fires_on_a_tool_that_breaks_it(rule, broken):
    assert rule in rules_of(broken)


@pytest.mark.parametrize("name", ["get_daily_forecast", "getDailyForecast", "get-daily-forecast",
                                  "weather.get_forecast", "look_up_city", "show_local_time", "retrieve_order"])
def test_spec_legal_intent_names_in_any_casing_pass(name):
    assert "name-intent" not in rules_of(changed(name=name))


def test_exclusive_bounds_count_as_bounds():
    bounded = changed(properties={"days": {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 8,
                                           "description": "Days."}})
    assert "param-bounds" not in rules_of(bounded)


def test_names_used_twice_are_found_across_the_whole_list():
    findings = review.review([GOOD, changed(description=GOOD["description"]), changed(name="get_hourly_forecast")])
    assert [(f.tool, f.rule) for f in findings] == [("get_daily_forecast", "name-unique")]
    assert review.review([GOOD, changed(name="get_hourly_forecast")]) == []


@pytest.mark.parametrize("description, when, when_not", [
    ("Local time for one city. Use it when someone asks the time now. Do not use it to convert zones.", True, True),
    ("Local time for one city. Helpful when a user wants the time, but not for past times.", True, True),
    ("Local time for one city. Avoid it for conversions; call convert_time instead.", False, True),
    ("Read one incident by ID. This tool does not modify incident state.", False, True),
    ("Close an incident. Use it only after the person has seen the preview.", True, True),
    ("Local time. There is no time question you should not use it for.", True, False),
    ("Weather tool.", False, False),
    ("Local time for one city. Use it whenever time comes up. Do not use it incorrectly.", True, False),
    ("Local time for one city. Do not hesitate to use it for any city.", True, False),
    ("Read one incident. It does not modify anything, and it is never cached.", False, True),
])
def test_prose_is_read_by_role(description, when, when_not):
    assert (review.says_when(description), review.says_when_not(description)) == (when, when_not)


LEAKING = {
    "stack trace": ['Traceback (most recent call last):\n  File "app.py", line 3, in <module>',
                    'File "/srv/app/handlers.py", line 88, in get_order'],
    "file path": ["could not open /var/lib/orders/archive.db", "see C:\\\\Users\\\\svc\\\\orders.log",
                  "failed in handlers.py", "config at /Users/ana/.config/orders/settings.toml"],
    "SQL": ["SELECT * FROM orders WHERE id = 42", "insert into notes (text) values ('x')",
            "UPDATE orders SET status = 'x'", "delete from sessions where id = 9"],
    "secret": ["api key sk_live_4eC39HqLyjWDarjtT1zdp7dc", "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9abc",
               "password=hunter2", "token ghp_16C7e42F292c6912E7710c838347Ae178B4a"],
    "internal host": ["connect to db-7.internal failed", "upstream 10.0.3.17 refused", "host 192.168.1.20",
                      "orders.corp timed out"],
}
CLEAN = [
    "Order ORD-9999 was not found. Check the number, or call list_orders to see your orders.",
    "The archive is offline right now; try again in a few minutes.",
    "Unknown city 'Atlantis'. Pass one city name spelled out in full.",
    "requestId 9e2b4d6f-8a1c-4e3f-b5d7-0f2a4c6e8b13 was already used for a different note, so nothing was changed.",
    "Incident INC-204 was not found, or you do not have access to it. Use search_incidents to find IDs.",
    "days must be between 1 and 7; you sent 10.",
]


@pytest.mark.parametrize("kind, text", [(kind, text) for kind, texts in LEAKING.items() for text in texts])
def test_leaks_finds_each_kind_of_internal(kind, text):
    assert kind in review.leaks(text)


@pytest.mark.parametrize("text", CLEAN)
def test_leaks_passes_the_courses_own_good_messages(text):
    assert review.leaks(text) == []


@pytest.mark.parametrize("description, opens", [
    ("Current local time and UTC offset for one city. Use it for the time now.", True),
    ("Use it to get the local time in a city. Do not use it for dates.", False),
    ("Do not use it for dates. Local time for one city.", False),
    ("Time.", False),
])
def test_a_description_opens_with_what_the_tool_does(description, opens):
    assert review.opens_with_what(description) is opens


@pytest.mark.parametrize("name, annotations, fires", [
    ("delete_runbook", None, True), ("send_message", {}, True), ("createTicket", None, True),
    ("delete_runbook", {"destructiveHint": True}, False), ("get_runbook", None, False),
])
def test_a_tool_that_changes_things_without_annotations_is_flagged(name, annotations, fires):
    tool = changed(name=name, **({} if annotations is None else {"annotations": annotations}))
    assert ("annotations-missing" in rules_of(tool)) is fires
