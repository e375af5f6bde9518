"""Checkers and hints for lesson 01: a bad tool and its rewrite."""

from __future__ import annotations

from course_lib import review
from course_lib.checks.core import Probe, build_server, call_learner, checker, fail, probe, require, result_text
from course_lib.servers import weather

HINTS: dict[str, tuple[str, ...]] = {
    "1.1": (
        "A model picks a tool from its name and description alone. Name the intent as verb_object "
        "(what does the person want to get?).",
        "Write three sentences: what it returns; 'Use it when ...'; 'Do not use it for ...'. "
        "Describe the parameter with Annotated[str, Field(description=...)].",
        "For example: get_local_time(city) with 'Current local time and UTC offset for one city. Use it when "
        "someone asks what time it is in a named city. Do not use it to convert between time zones or for "
        "past or future times.' The body stays `return clock.local_time(city)`.",
    ),
    "1.2": (
        "The model never reads your function body, and prose limits are easy to miss. Put each limit "
        "where the schema shows it.",
        "days: Annotated[int, Field(ge=1, le=7, description=...)] = 3 gives minimum, maximum and default; "
        "units: Literal['metric', 'imperial'] = 'metric' gives an enum.",
        "After the change, list the tools: days must show minimum 1 and maximum 7, units an enum. "
        "Calls with days=10 or units='celsius' then fail before your body runs.",
    ),
    "1.3": (
        "The model should see one tool for one intent. Keep the three backend steps, but call them "
        "inside a single tool instead of exposing each.",
        "Inside get_daily_forecast(city, days, units): city_id = weather.lookup_city_id(city); "
        "days_list = weather.fetch_metric_forecast(city_id, days); convert each high and low with "
        "weather.convert_temperature(value, units).",
        "Raise ToolError naming the city when lookup_city_id returns None, and return "
        "weather.Forecast(city=weather.city_name(city_id), units=units, days=...). "
        "Do not register get_city_id, get_forecast or convert_units.",
    ),
    "1.4": (
        "The 2026-07-28 spec allows 1 to 128 characters, each an ASCII letter, a digit, '_', '-' or '.'.",
        "In Python regular expressions \\w also matches letters such as 'é' and '名'. "
        "Spell the characters out: [A-Za-z0-9_.-].",
        "re.fullmatch(r'[A-Za-z0-9_.-]{1,128}', name) is not None (fullmatch, so a trailing newline "
        "is not accepted either).",
    ),
}


# --- 1.1 name and describe a vague tool -------------------------------------------------------------


@checker("1.1")
def ex_01_1(build_clock_server) -> str:
    """Check a renamed, described clock tool."""
    server = build_server(build_clock_server)
    seen: Probe = probe(server, lambda tools: [
        (tool["name"], {param: city})
        for tool in tools[:1]
        for param in list(tool["inputSchema"].get("properties", {}))[:1]
        for city in ("Tokyo", "Atlantis")
    ])
    require(len(seen.tools) == 1, "exactly one tool", f"{len(seen.tools)}: {', '.join(seen.names) or 'none'}")
    tool = seen.tools[0]
    name, description = tool["name"], tool.get("description", "")
    require(review.is_valid_name(name), "a name of 1-128 characters from A-Z a-z 0-9 _ - .", repr(name))
    require(review.is_verb_object(name), "a verb_object name such as get_local_time", repr(name))
    require(len(review.sentences(description)) >= 3,
            "a description of at least three sentences (what / when / when not)", repr(description))
    require(review.says_when(description), "a sentence that says when to use it ('Use it when ...')",
            repr(description))
    require(review.says_when_not(description), "a sentence that says when not to use it ('Do not use it ...')",
            repr(description))
    params = tool["inputSchema"].get("properties", {})
    require(list(params) == ["city"], "one parameter named city", ", ".join(params) or "no parameters")
    require("description" in params["city"], "a description on the city parameter", "none")
    ok, unknown = seen.results
    require(not ok.get("isError") and "2026-10-02T23:30" in result_text(ok),
            "the Tokyo call to return the local time 2026-10-02T23:30", result_text(ok)[:120])
    require(bool(unknown.get("isError")), "an unknown city to be a tool error (isError: true)",
            result_text(unknown)[:120])
    return f"{name}(city) has a verb_object name, what/when/when-not description and a described parameter"


# --- 1.2 constrain in the schema, not in prose -----------------------------------------------------


@checker("1.2")
def ex_01_2(build_forecast_server) -> str:
    """Check that days and units are constrained in the input schema."""
    server = build_server(build_forecast_server)
    calls = [
        ("get_daily_forecast", {"city": "Oslo", "days": 2, "units": "imperial"}),
        ("get_daily_forecast", {"city": "Oslo", "days": 10}),
        ("get_daily_forecast", {"city": "Oslo", "units": "celsius"}),
    ]
    seen = probe(server, lambda tools: calls if "get_daily_forecast" in [t["name"] for t in tools] else [])
    require("get_daily_forecast" in seen.names, "a tool named get_daily_forecast", ", ".join(seen.names))
    params = seen.tool("get_daily_forecast")["inputSchema"].get("properties", {})
    days, units = params.get("days", {}), params.get("units", {})
    require((days.get("minimum"), days.get("maximum")) == (1, 7),
            "days with minimum 1 and maximum 7 in the input schema",
            f"minimum={days.get('minimum')}, maximum={days.get('maximum')}")
    require(days.get("default") == 3, "days to default to 3", f"default={days.get('default')}")
    require(sorted(units.get("enum", [])) == ["imperial", "metric"],
            "units with enum ['metric', 'imperial'] in the input schema",
            f"enum={units.get('enum')} (type {units.get('type')})")
    require(units.get("default") == "metric", "units to default to 'metric'", f"default={units.get('default')}")
    good, too_many_days, celsius = seen.results
    expected = weather.daily_forecast("Oslo", 2, "imperial").model_dump(mode="json")
    require(good.get("structuredContent") == expected, "Oslo, 2 days, imperial to match the backend",
            result_text(good)[:120])
    require(bool(too_many_days.get("isError")) and bool(celsius.get("isError")),
            "days=10 and units='celsius' to be rejected", "at least one of them was accepted")
    return "days is 1-7 (default 3) and units is an enum in the schema; bad calls are rejected"


# --- 1.3 merge a three-step chain into one intent-level tool ---------------------------------------

_CASES = [("Paris", 3, "metric"), ("Denver", 2, "imperial"), ("des moines", 1, "metric")]


@checker("1.3")
def ex_01_3(build_forecast_server) -> str:
    """Check that one tool hides the city-id, forecast and unit-conversion steps."""
    server = build_server(build_forecast_server)
    calls = [("get_daily_forecast", {"city": c, "days": d, "units": u}) for c, d, u in _CASES]
    calls.append(("get_daily_forecast", {"city": "Atlantis"}))
    seen = probe(server, lambda tools: calls if [t["name"] for t in tools] == ["get_daily_forecast"] else [])
    require(seen.names == ["get_daily_forecast"], "one tool, get_daily_forecast",
            f"{len(seen.names)} tools: {', '.join(seen.names) or 'none'}")
    params = list(seen.tool("get_daily_forecast")["inputSchema"].get("properties", {}))
    require(params == ["city", "days", "units"], "parameters city, days, units", ", ".join(params))
    output = seen.tool("get_daily_forecast").get("outputSchema") or {}
    require(set(output.get("properties", {})) == {"city", "units", "days"},
            "a Forecast output schema (city, units, days)", ", ".join(output.get("properties", {})) or "none")
    for (city, days, units), result in zip(_CASES, seen.results):
        expected = weather.daily_forecast(city, days, units).model_dump(mode="json")
        require(result.get("structuredContent") == expected,
                f"{city}, {days} day(s), {units} to give {expected['days'][0]} first",
                str((result.get("structuredContent") or {}).get("days", [result_text(result)[:100]])[:1]))
    unknown = seen.results[-1]
    require(bool(unknown.get("isError")) and "Atlantis" in result_text(unknown),
            "an unknown city to be a tool error that names the city", result_text(unknown)[:120])
    return "one get_daily_forecast tool looks up the city, fetches and converts, for 3 cities and both units"


# --- 1.4 the name rule of the 2026-07-28 spec ------------------------------------------------------

NAME_CASES: list[str] = [
    "get_daily_forecast", "getDailyForecast", "weather.get-forecast", "v2", "a" * 128, "-leading-dash",
    "", "a" * 129, "has space", "météo", "名前", "comma,name", "slash/name", "name\n", "tab\tname",
]


@checker("1.4")
def ex_01_4(is_valid_tool_name) -> str:
    """Check a tool-name validator against the spec's rule."""
    for name in NAME_CASES:
        got = call_learner(is_valid_tool_name, name)
        want = review.is_valid_name(name)
        if got is not want:
            shown = name if len(name) <= 20 else f"{name[:6]}… ({len(name)} chars)"
            raise fail(f"is_valid_tool_name({shown!r}) to be {want}", repr(got))
    return f"is_valid_tool_name agrees with the spec on {len(NAME_CASES)} names"
