"""Checkers and hints for lesson 01: a bad tool and its rewrite."""

from __future__ import annotations

import json
import random
import re
import secrets
import string
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from course_lib import review
from course_lib.checks.core import (Probe, asked_about, build_server, call_learner, checker, course_state, drawn, fail,
                                    no_earlier_call, outcome, refused, require, require_deliberate, result_text,
                                    session, quoted, shown, spec, watched)
from course_lib.checks.schemas import choices, int_bounds, param, resolve, types
from course_lib.servers import clock, weather

HINTS: dict[str, tuple[str, ...]] = {
    "1.1": (
        "A model picks a tool from its name and description alone. Name the intent as verb + what it gets "
        "(the time), in any casing: get_local_time, lookUpLocalTime, show-city-time.",
        "The description needs three roles: what it returns; when to use it ('Use it when ...', 'Call it for "
        "...'); when not ('Do not use it for ...', 'Avoid it for ...', 'It does not ...'). Describe the "
        "parameter with Annotated[str, Field(description=...)].",
        "For example: get_local_time(city) with 'Current local time and UTC offset for one city. Use it when "
        "someone asks what time it is in a named city. Do not use it to convert between time zones or for "
        "past or future times.' Annotate it -> clock.LocalTime; the body stays `return clock.local_time(city)`, "
        "which already raises a ToolError naming an unknown city.",
    ),
    "1.2": (
        "The model never reads your function body, and prose limits are easy to miss. Put each limit "
        "where the schema shows it, so the SDK refuses a bad call before your code runs.",
        "days: Annotated[int, Field(ge=1, le=7, description=...)] = 3 gives minimum, maximum and default; "
        "units: Literal['metric', 'imperial'] = 'metric' gives an enum (a str Enum class works too).",
        "After the change, list the tools: days must show minimum 1 and maximum 7, units an enum. "
        "Calls with days=8, days=0 or units='celsius' then fail before your body runs. A bound in "
        "json_schema_extra only decorates the schema: nothing enforces it.",
    ),
    "1.3": (
        "The model should see one tool for one intent. Keep the three backend steps, but call them "
        "inside a single tool instead of exposing each. Keep the limits of exercise 1.2 in its schema.",
        "Inside get_daily_forecast(city, days, units): city_id = weather.lookup_city_id(city); "
        "days_list = weather.fetch_metric_forecast(city_id, days); convert each high and low with "
        "weather.convert_temperature(value, units).",
        "Raise ToolError naming the city when lookup_city_id returns None (before fetching), and return "
        "weather.Forecast(city=weather.city_name(city_id), units=units, days=...). "
        "Do not register get_city_id, get_forecast or convert_units, and do not call weather.daily_forecast.",
    ),
    "1.4": (
        "The 2026-07-28 spec allows 1 to 128 characters, each an ASCII letter, a digit, '_', '-' or '.'.",
        "In Python regular expressions \\w also matches letters such as 'é' and '名', and str.isalnum() "
        "accepts them too. Spell the characters out: [A-Za-z0-9_.-]. '$' also matches before a final newline.",
        "return re.fullmatch(r'[A-Za-z0-9_.-]{1,128}', name) is not None (fullmatch, so a trailing newline "
        "is not accepted either; `is not None` makes it a bool).",
    ),
}


# --- 1.1 name and describe a vague tool -------------------------------------------------------------

RULES_1_1 = spec(
    ("one-tool", "register exactly one tool", "list the tools"),
    ("name", "give it a name within the spec's name rules, in any casing, whose first word is a verb and "
             "which says what it gets: one of its words contains `time` (get_local_time, lookUpLocalTime, "
             "show-city-time)",
     "review.is_valid_name, the first of review.name_words in review.VERBS, a word containing 'time'",
     "a name within the spec's rules that opens with a verb (get, show, look, find ...) and has a later word "
     "containing `time`"),
    ("what", "open the description with a sentence of at least three words that says what the tool returns, "
             "before any 'use it' or 'do not' (for an exchange-rate tool, 'The current rate between two currencies.')",
     "review.opens_with_what: the first sentence has at least three words and does not open with a limit",
     "a description whose first sentence (three words or more) says what the tool returns, before any 'use it' "
     "or 'do not'"),
    ("when", "say in the description when to use it (for an exchange-rate tool, 'Use it when a user wants a sum "
             "in another currency', 'Helpful for questions like how many yen is ten euros')",
     "review.invites_use on its clauses (the opening one counts only with use/call/when-style words)",
     "a description that says when to use the tool"),
    ("when-not", "say in the description when not to use it (for an exchange-rate tool, 'Do not use it for past "
                 "rates', 'Avoid it for buying currency'; 'It does not ...' counts, a double negative does not)",
     "review.limits_use on its clauses",
     "a description that says when not to use the tool ('It does not ...' counts, a double negative does not)"),
    ("city", "take one parameter, city: a required string with a description",
     "the listed inputSchema, $ref resolved"),
    ("same-job", "return the `clock.LocalTime` that `clock.local_time(city)` gives (`-> clock.LocalTime`), so "
                 "structuredContent holds its city, local_time and utc_offset, for a known city's name in any "
                 "case and spacing",
     "all seven known cities in odd casing and spacing; structuredContent compared whole with clock.local_time"),
    ("unknown", "answer an unknown city with a tool error (ToolError) whose message names the city",
     "two unknown cities; a hidden crash (plain exception) fails"),
)

_MORE_VERBS = frozenset("tell obtain provide return report give see say know learn determine discover locate request "
                        "access".split())
"""Verbs a tool name may open with beyond review.VERBS (a name is judged by its first word's role)."""


def _names_intent(name: str) -> bool:
    """Spec-legal, its first word a verb, and one of the words after it about the time (what the tool gets)."""
    words = review.name_words(name.rsplit(".", 1)[-1])
    return (review.is_valid_name(name) and len(words) >= 2 and words[0] in review.VERBS | _MORE_VERBS
            and any("time" in word for word in words[1:]))


_OPENING_WHEN = re.compile(r"\b(?:use|using|call|calling|when|whenever|helpful|useful|ideal|suited|meant|intended|"
                           r"designed|good for|best for)\b", re.I)
_CITY_SPELLINGS = {"Tokyo": "tokyo", "Kathmandu": "  Kathmandu ", "Denver": "DENVER", "Des Moines": "des moines",
                   "Nairobi": "Nairobi", "Oslo": "oSLO", "Paris": "Paris"}
_UNKNOWN_CITIES = ("Atlantis", "Springfield")


def _says_when(description: str) -> bool:
    parts = review.clauses(description)
    invites = [review.invites_use(part, negation_in_condition=True) for part in parts]
    later = any(invites[1:])
    opening = bool(parts) and invites[0] and _OPENING_WHEN.search(parts[0]) is not None
    return later or opening


@checker("1.1", RULES_1_1)
def ex_01_1(build_clock_server) -> str:
    """Check a renamed, described clock tool."""
    server = build_server(build_clock_server)
    seen: Probe = session(server, lambda tools: [
        (tool["name"], {param_name: city})
        for tool in tools[:1]
        for param_name in list(tool["inputSchema"].get("properties", {}))[:1]
        for city in [*_CITY_SPELLINGS.values(), *_UNKNOWN_CITIES]
    ])
    require(len(seen.tools) == 1, "one-tool", f"{len(seen.tools)}: {', '.join(seen.names) or 'none'}")
    tool = seen.tools[0]
    name, description = tool["name"], tool.get("description") or ""
    require(_names_intent(name), "name", repr(name))
    require(review.opens_with_what(description), "what", quoted(description) or "no description")
    require(_says_when(description), "when", quoted(description) or "no description")
    require(review.says_when_not(description, negation_in_condition=True), "when-not",
            quoted(description) or "no description")
    schema = tool["inputSchema"]
    params = list(schema.get("properties", {}))
    require(params == ["city"], "city", ", ".join(params) or "no parameters")
    city = param(tool, "city")
    require("string" in types(city) and "city" in schema.get("required", []), "city",
            f"city of type {'/'.join(sorted(types(city))) or 'any'}"
            f"{'' if 'city' in schema.get('required', []) else ', optional'}")
    require(str(city.get("description", "")).strip(), "city", "city has no description")
    for (canonical, spelled), result in zip(_CITY_SPELLINGS.items(), seen.results):
        want = clock.local_time(canonical).model_dump(mode="json")
        if result.get("isError") or "clientError" in result:
            require_deliberate(result, name, "same-job", f"city={spelled!r} should work")
            raise fail("same-job", outcome(result), f"city={spelled!r} should work")
        got = result.get("structuredContent")
        require(got == want, "same-job",
                lambda: f"structuredContent {shown(json.dumps(got), 100)}" if got else
                f"no structuredContent, text only: {quoted(result_text(result), 80)}",
                f"city={spelled!r} should give {json.dumps(want)}")
    for city_name, result in zip(_UNKNOWN_CITIES, seen.results[len(_CITY_SPELLINGS):]):
        require_deliberate(result, name, "unknown", f"city={city_name!r}")
        require(city_name.casefold() in result_text(result).casefold(), "unknown", outcome(result),
                f"the message for city={city_name!r} should name it")
    return f"{name}(city) has a verb + object name, a what/when/when-not description and a described city; " \
           f"it answers {len(_CITY_SPELLINGS)} cities and refuses unknown ones by name"


# --- 1.2 constrain in the schema, not in prose -----------------------------------------------------

_LIMIT_RULES = (
    ("days-schema", "show days in the input schema as an integer from 1 to 7: `ge=1, le=7` (minimum 1, "
                    "maximum 7) or `gt=0, lt=8` (exclusiveMinimum 0, exclusiveMaximum 8), which allow the same "
                    "whole numbers",
     "the listed schema, $ref resolved, exclusive bounds turned into inclusive ones"),
    ("days-default", "give days the default 3", "the schema's default, and a call without days returns 3 days"),
    ("days-enforced", "refuse days outside 1-7 (such as 0, 8 or 2.5) with a tool error, and accept every whole "
                      "number from 1 to 7 sent as a JSON integer (3.0 may be accepted or refused: `strict=True` "
                      "is allowed)",
     "calls with days from -2 to 10, and 2.5"),
    ("units-schema", "show units in the input schema as a choice of exactly 'metric' and 'imperial' "
                     "(a Literal or a str Enum)",
     "the listed schema, $ref resolved (an Enum's $defs entry counts)"),
    ("units-default", "give units the default 'metric'",
     "the schema's default, and a call without units returns metric"),
    ("units-enforced", "refuse any other units (such as 'celsius', 'Metric' or '') with a tool error",
     "calls with each"),
)

RULES_1_2 = spec(
    ("tool", "keep one tool named get_daily_forecast with the parameters city, days and units, and no others",
     "list the tools"),
    *_LIMIT_RULES,
    ("prose", "keep the description and the parameters' descriptions from contradicting the schema: every "
              "number they name lies between 1 and 7 ('for up to 14 days' contradicts it)",
     "every number written in the description and in the parameters' descriptions"),
    ("forecast", "return weather.daily_forecast(city, days, units) for every call it accepts",
     "several cities, day counts and both units, compared to the backend inside the check"),
)

_BAD_DAYS = (-2, -1, 0, 8, 9, 10, 2.5)
_BAD_UNITS = ("celsius", "Metric", "IMPERIAL", "kelvin", "")


def _limit_calls(city: str = "Oslo") -> list[tuple[str, dict]]:
    """The calls that probe days and units, in the order `_judge_limits` reads them. Each probes one parameter and
    sends the other one, so a missing default of one is never blamed on the other (unseen11, M1)."""
    calls = [("get_daily_forecast", {"city": city, "days": days, "units": "metric"}) for days in range(1, 8)]
    calls += [("get_daily_forecast", {"city": city, "days": days, "units": "metric"}) for days in _BAD_DAYS]
    calls += [("get_daily_forecast", {"city": city, "days": 3, "units": units}) for units in _BAD_UNITS]
    calls += [("get_daily_forecast", {"city": city, "units": "metric"}),
              ("get_daily_forecast", {"city": city, "days": 3}),
              ("get_daily_forecast", {"city": city, "days": 3, "units": "imperial"})]
    return calls


def _judge_limits(tool: dict, results: list[dict], rule: Callable[[str], str], city: str = "Oslo") -> None:
    """Judge days and units by the listed schema and by the calls of `_limit_calls`."""
    days, units = param(tool, "days"), param(tool, "units")
    low, high = int_bounds(days)
    require(types(days) == {"integer"} and (low, high) == (1, 7), rule("days-schema"),
            f"days: type {'/'.join(sorted(types(days))) or 'any'}, lowest {low}, highest {high}")
    require(days.get("default") == 3, rule("days-default"), f"default {days.get('default')!r}")
    want = sorted(["metric", "imperial"])
    found = choices(units)
    require(found is not None and sorted(found) == want, rule("units-schema"),
            f"units: {'enum ' + json.dumps(found) if found is not None else 'type ' + str(units.get('type'))}")
    require(units.get("default") == "metric", rule("units-default"), f"default {units.get('default')!r}")
    results = iter(results)
    for count in range(1, 8):
        result = next(results)
        got = (result.get("structuredContent") or {}).get("days")
        require(not refused(result) and isinstance(got, list) and len(got) == count, rule("days-enforced"),
                lambda: outcome(result), f"days={count} should give {count} days")
    for count in _BAD_DAYS:
        result = next(results)
        require_deliberate(result, "get_daily_forecast", rule("days-enforced"), f"days={count} should be refused")
    for value in _BAD_UNITS:
        result = next(results)
        require_deliberate(result, "get_daily_forecast", rule("units-enforced"),
                           f"units={value!r} should be refused")
    no_days, no_units, imperial = next(results), next(results), next(results)
    require(not refused(no_days) and len((no_days.get("structuredContent") or {}).get("days") or []) == 3,
            rule("days-default"), outcome(no_days), f"get_daily_forecast(city={city!r}, units='metric') should give "
                                                    "3 days")
    require(not refused(no_units) and (no_units.get("structuredContent") or {}).get("units") == "metric",
            rule("units-default"), outcome(no_units), f"get_daily_forecast(city={city!r}, days=3) should be metric")
    require(not refused(imperial) and (imperial.get("structuredContent") or {}).get("units") == "imperial",
            rule("units-enforced"), outcome(imperial), "units='imperial' should be accepted")


_FORECASTS = (("Oslo", 2, "imperial"), ("Paris", 7, "metric"), ("Denver", 1, "imperial"), ("Nairobi", 5, "metric"))


def _texts_of(tool: dict) -> str:
    """The description and every parameter's description, joined."""
    params = (tool.get("inputSchema") or {}).get("properties", {})
    return " ".join([tool.get("description") or ""] + [str(p.get("description") or "") for p in params.values()])


def _numbers_outside_days(tool: dict) -> list[str]:
    """Numbers in the texts a model reads that lie outside 1-7 (a limit the schema contradicts)."""
    return [number for number in re.findall(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.]\d)", _texts_of(tool))
            if not 1 <= float(number) <= 7]


def _differs(expected: dict, got: Any) -> str:
    """The first field where a structured forecast differs from the backend's, as 'field: want … got …'."""
    if not isinstance(got, dict):
        return f"no structured forecast ({type(got).__name__})"
    for key in ("city", "units"):
        if got.get(key) != expected[key]:
            return f"{key}: expected {expected[key]!r}, got {got.get(key)!r}"
    days = got.get("days") or []
    if len(days) != len(expected["days"]):
        return f"days: expected {len(expected['days'])} entries, got {len(days)}"
    for index, (want, have) in enumerate(zip(expected["days"], days)):
        for key, value in want.items():
            if not isinstance(have, dict) or have.get(key) != value:
                found = have.get(key) if isinstance(have, dict) else have
                return f"days[{index}].{key}: expected {value!r}, got {found!r}"
    extra = sorted(set(got) - set(expected))
    return f"extra fields {', '.join(extra)}" if extra else ""


@checker("1.2", RULES_1_2)
def ex_01_2(build_bounded_forecast_server) -> str:
    """Check that days and units are constrained in the input schema, and that the limits are enforced."""
    server = build_server(build_bounded_forecast_server)
    calls = _limit_calls() + [("get_daily_forecast", {"city": c, "days": d, "units": u}) for c, d, u in _FORECASTS]
    seen = session(server, calls)
    require(seen.names == ["get_daily_forecast"], "tool", ", ".join(seen.names) or "no tools")
    tool = seen.tool("get_daily_forecast")
    params = sorted(tool["inputSchema"].get("properties", {}))
    require(params == ["city", "days", "units"], "tool", f"parameters {', '.join(params) or 'none'}")
    _judge_limits(tool, seen.results, lambda name: name)
    outside = _numbers_outside_days(tool)
    require(not outside, "prose", lambda: f"the number(s) {', '.join(outside)} in {shown(_texts_of(tool), 120)!r}")
    for (city, days, units), result in zip(_FORECASTS, seen.results[len(calls) - len(_FORECASTS):]):
        expected = weather.daily_forecast(city, days, units).model_dump(mode="json")
        label = f"city={city!r}, days={days}, units={units!r}"
        require(not refused(result) and "clientError" not in result, "forecast", lambda: outcome(result), label)
        difference = _differs(expected, result.get("structuredContent"))
        require(not difference, "forecast", difference, label)
    return "days is an integer 1-7 (default 3) and units a metric/imperial choice (default metric) in the " \
           "schema; every day count and unit outside them is refused, every one inside works"


# --- 1.3 merge a three-step chain into one intent-level tool ---------------------------------------

RULES_1_3 = spec(
    ("one-tool", "register one tool only, get_daily_forecast (no get_city_id, get_forecast or convert_units)",
     "list the tools"),
    ("limits", "take city, days and units with the limits of exercise 1.2 in the schema: days an integer from "
               "1 to 7 (default 3), units 'metric' or 'imperial' (default 'metric'); other values refused",
     "the probes of exercise 1.2"),
    ("output", "return a weather.Forecast (`-> weather.Forecast`), so the output schema has city, units and days",
     "the listed outputSchema"),
    ("steps", "do the steps yourself, without calling weather.daily_forecast (it does all three: that is the "
              "answer)",
     "weather.daily_forecast runs only in the grader, which counts every call your cells and this check make; "
     "the backend's forecasts change when the check starts, so one kept from earlier is wrong"),
    ("forecast", "return the backend's forecast for every known city (any case and spacing), 1 to 7 days, "
                 "in both units, with the city's name as weather.city_name spells it",
     "every known city, days 1 and 7, both units, compared to the backend inside the check"),
    ("unknown", "answer an unknown city with a tool error (ToolError) whose message names the city",
     "two unknown cities; a hidden crash (plain exception) fails"),
)

_MERGED = (("Paris", 3, "metric"), ("Denver", 2, "imperial"), ("des moines", 1, "metric"),
           ("  NAIROBI ", 7, "imperial"), ("Oslo", 7, "metric"), ("Des Moines", 4, "imperial"))
_NOT_CITIES = ("Atlantis", "Gotham City")


@contextmanager
def _reseeded(seed: int) -> Iterator[None]:
    """The weather backend with another 'today' and other daily swings, drawn from `seed`, while a check runs.

    The grader draws `seed` when 1.3's check starts and enters this here and in the kernel (`course_state`), so
    the backend's steps and the forwarded `weather.daily_forecast` give the same new forecasts on both sides,
    and a forecast fetched earlier (a cell, another exercise's check) no longer matches (red team 7's c14, c18)."""
    draw = random.Random(seed)
    before = weather.FORECAST_START, weather._DAILY_SWING
    weather.FORECAST_START = before[0] + timedelta(days=draw.randrange(1, 3650))
    weather._DAILY_SWING = tuple(draw.randrange(-80, 81) / 10 for _day in range(weather.MAX_DAYS))
    try:
        yield
    finally:
        weather.FORECAST_START, weather._DAILY_SWING = before


@checker("1.3", RULES_1_3)
def ex_01_3(build_merged_forecast_server) -> str:
    """Check that one tool hides the city-id, forecast and unit-conversion steps."""
    with course_state(_reseeded, secrets.randbits(64)):
        return _judge_merged(build_merged_forecast_server)


def _judge_merged(build_merged_forecast_server: Any) -> str:
    """1.3's check, inside a backend the kernel could not know before it began (`_reseeded`)."""
    expected = {case: weather.daily_forecast(*case).model_dump(mode="json") for case in _MERGED}
    calls = [("get_daily_forecast", {"city": c, "days": d, "units": u}) for c, d, u in _MERGED]
    calls += [("get_daily_forecast", {"city": city}) for city in _NOT_CITIES]
    with watched("course_lib.servers.weather", "daily_forecast", earlier=no_earlier_call) as caught:  # all drawn now
        seen = session(build_server(build_merged_forecast_server), calls + _limit_calls("Paris"))
    require(seen.names == ["get_daily_forecast"], "one-tool",
            f"{len(seen.names)} tools: {', '.join(seen.names) or 'none'}")
    tool = seen.tool("get_daily_forecast")
    require(not caught, "steps", f"weather.daily_forecast called {caught.times()}")
    params = sorted(tool["inputSchema"].get("properties", {}))
    require(params == ["city", "days", "units"], "limits", f"parameters {', '.join(params) or 'none'}")
    output = resolve(tool.get("outputSchema") or {}, tool.get("outputSchema") or {})
    require(set(output.get("properties", {})) == {"city", "units", "days"}, "output",
            f"output fields {', '.join(output.get('properties', {})) or 'none'}")
    for case, result in zip(_MERGED, seen.results):
        city, days, units = case
        label = f"city={city!r}, days={days}, units={units!r}"
        require(not refused(result) and "clientError" not in result, "forecast", lambda: outcome(result), label)
        difference = _differs(expected[case], result.get("structuredContent"))
        require(not difference, "forecast", difference, label)
    for city, result in zip(_NOT_CITIES, seen.results[len(_MERGED):]):
        require_deliberate(result, "get_daily_forecast", "unknown", f"city={city!r}")
        require(city.casefold() in result_text(result).casefold(), "unknown", outcome(result),
                f"the message for city={city!r} should name it")
    _judge_limits(tool, seen.results[len(calls):], lambda name: "limits", city="Paris")
    return "one get_daily_forecast tool looks up the city, fetches and converts (for 5 cities, 1-7 days, both " \
           "units), keeps the 1.2 limits and refuses unknown cities by name"


# --- 1.4 the name rule of the 2026-07-28 spec ------------------------------------------------------

RULES_1_4 = spec(
    ("rule", "return True exactly when the name is 1 to 128 characters, each an ASCII letter, a digit, _, - "
             "or ., and False otherwise",
     "boundary names (0, 1, 128, 129 characters), non-ASCII letters and digits, whitespace, a trailing "
     "newline, punctuation, and 300 generated names"),
    ("bool", "return a bool (True or False), not a match object or None", "the type of every answer"),
    ("own", "write the rule yourself, without calling `review.is_valid_name` or the SDK's `validate_tool_name` "
            "(each is the answer); a pattern is the rule written down, so yours or the SDK's `TOOL_NAME_REGEX` is "
            "fine",
     "both are watched while the check runs, wherever your function reaches them from"),
)

_LEGAL = frozenset(string.ascii_letters + string.digits + "_-.")
NAME_CASES: tuple[str, ...] = (
    "get_daily_forecast", "getDailyForecast", "weather.get-forecast", "v2", "x", "a" * 128, "-leading-dash",
    "...", "Z9", "", "a" * 129, "b" * 200, "has space", "météo", "名前", "comma,name", "slash/name", "name\n",
    "\nname", "tab\tname", "nbsp\u00a0name", "digit\u0663", "ｆｕｌｌ", "Kelvin\u212a", "dollar$", "at@", "plus+",
    "colon:name", "emoji🙂",
)


def _spec_legal(name: str) -> bool:
    return 1 <= len(name) <= 128 and all(ch in _LEGAL for ch in name)


def _show_name(name: str) -> str:
    return repr(name) if len(name) <= 24 else f"{name[:8]!r}… ({len(name)} characters)"


def _judge_name(is_valid_tool_name: Any, name: str) -> None:
    got = call_learner(is_valid_tool_name, name)
    want = _spec_legal(name)
    require(isinstance(got, bool), "bool", f"{type(got).__name__} {shown(repr(got), 60)}",
            f"is_valid_tool_name({_show_name(name)})")
    require(got is want, "rule", repr(got), f"is_valid_tool_name({_show_name(name)}) should be {want}")


@checker("1.4", RULES_1_4)
def ex_01_4(is_valid_tool_name) -> str:
    """Check a tool-name validator against the spec's rule, and that it is not the course's or the SDK's."""
    with watched("course_lib.review", "is_valid_name", earlier=asked_about(*NAME_CASES)) as used, \
            watched("mcp.shared.tool_name_validation", "validate_tool_name") as used_sdk:
        _judge_names(is_valid_tool_name)
    require(not (used + used_sdk), "own", lambda: used.called(used_sdk))
    return f"is_valid_tool_name agrees with the spec on {len(NAME_CASES)} chosen and 300 generated names"


def _judge_names(is_valid_tool_name: Any) -> None:
    from hypothesis import given
    from hypothesis import strategies as st

    for name in NAME_CASES:
        _judge_name(is_valid_tool_name, name)
    printable = [chr(code) for code in range(32, 127)]  # every ASCII character, [ \\ ] ^ ` between Z and a too
    alphabet = st.sampled_from(sorted(set(printable) | _LEGAL) + list("\t\néå名٣ｆ\u212a\u00a0") + ["\x00"])
    legal = st.text(alphabet=st.sampled_from(sorted(_LEGAL)), min_size=120, max_size=135)
    names = st.one_of(st.text(alphabet=alphabet, max_size=20), legal,
                      st.tuples(legal, alphabet).map("".join), st.text(max_size=12))

    @drawn(300, shrink=True)
    @given(names)
    def each(name: str) -> None:
        _judge_name(is_valid_tool_name, name)

    each()
