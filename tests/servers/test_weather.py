"""Contract tests for lesson 01's servers: definitions, results and errors, in both protocol eras."""

from __future__ import annotations

import pytest

from course_lib import review, wire
from course_lib.servers import clock, weather
from conftest import call, definitions, text, server_info

ERAS = pytest.mark.parametrize("era", wire.ERAS)


@ERAS
def test_tool_list_is_the_bad_tool_then_its_rewrite(era):
    assert list(definitions(weather.build_server(), era)) == ["weather", "get_daily_forecast"]


def test_forecast_input_schema_constrains_every_argument():
    schema = definitions(weather.build_server())["get_daily_forecast"]["inputSchema"]
    props = schema["properties"]
    assert schema["required"] == ["city"]
    assert (props["city"]["minLength"], props["city"]["maxLength"]) == (1, 100)
    assert "description" in props["city"]
    assert (props["days"]["minimum"], props["days"]["maximum"], props["days"]["default"]) == (1, 7, 3)
    assert props["units"]["enum"] == ["metric", "imperial"] and props["units"]["default"] == "metric"


def test_forecast_definition_has_title_description_output_and_annotations():
    tool = definitions(weather.build_server())["get_daily_forecast"]
    assert tool["title"] == "Daily forecast"
    assert tool["description"].startswith("Daily high, low and conditions")
    assert "\n    " not in tool["description"], "descriptions are cleandoc'ed on every Python"
    assert tool["annotations"] == {"readOnlyHint": True, "openWorldHint": True}
    assert tool["outputSchema"]["title"] == "Forecast"
    assert tool["outputSchema"]["required"] == ["city", "units", "days"]


def test_bad_tool_is_as_vague_as_the_lesson_says():
    tool = definitions(weather.build_server())["weather"]
    assert tool["description"] == "Weather tool."
    assert tool["inputSchema"]["properties"] == {"q": {"title": "Q", "type": "string"}}
    assert "annotations" not in tool


@ERAS
def test_forecast_returns_structured_and_text_forms(era):
    result = call(weather.build_server(), "get_daily_forecast", {"city": "Denver", "days": 2, "units": "imperial"}, era)
    assert result["isError"] is False
    data = result["structuredContent"]
    assert data == weather.daily_forecast("Denver", 2, "imperial").model_dump(mode="json")
    assert [day["date"] for day in data["days"]] == ["2026-10-02", "2026-10-03"]
    assert data["days"][0]["high"] == 48.2
    assert '"city": "Denver"' in text(result)


def test_backend_conversion_and_lookup():
    assert weather.convert_temperature(100.0, "imperial") == 212.0
    assert weather.convert_temperature(-40.0, "imperial") == -40.0
    assert weather.lookup_city_id("  des   MOINES ") == weather.lookup_city_id("Des Moines") is not None
    assert weather.lookup_city_id("Atlantis") is None
    assert len(weather.fetch_metric_forecast(weather.lookup_city_id("Oslo"), 7)) == 7


@ERAS
@pytest.mark.parametrize("arguments, says", [
    ({"city": "Oslo", "days": 10}, "less than or equal to 7"),
    ({"city": "Oslo", "days": 0}, "greater than or equal to 1"),
    ({"city": "Oslo", "units": "celsius"}, "'metric' or 'imperial'"),
    ({"city": ""}, "at least 1 character"),
    ({"city": "   "}, "city is empty. Pass one city name"),
    ({"city": "Atlantis"}, "Unknown city 'Atlantis'. Pass one city name spelled out in full"),
    ({}, "Field required"),
])
def test_bad_arguments_are_tool_errors_that_say_what_to_change(era, arguments, says):
    result = call(weather.build_server(), "get_daily_forecast", arguments, era)
    assert result["isError"] is True
    assert says in text(result)
    assert review.leaks(text(result)) == []


def test_chain_server_exposes_three_steps():
    tools = definitions(weather.build_chain_server())
    assert list(tools) == ["get_city_id", "get_forecast", "convert_units"]
    server = weather.build_chain_server()
    city_id = call(server, "get_city_id", {"name": "Paris"})["structuredContent"]["result"]
    assert call(server, "get_forecast", {"city_id": city_id, "days": 1})["structuredContent"]["result"][0]["high"] == 16.0
    assert call(server, "get_forecast", {"city_id": "c-0"})["isError"] is True
    assert call(server, "convert_units", {"value": 0, "to": "fahrenheit"})["structuredContent"] == {"result": 32.0}


def test_clock_server_is_deterministic_and_rejects_unknown_cities():
    server = clock.build_server()
    assert list(definitions(server)) == ["tz"]
    assert text(call(server, "tz", {"x": "kathmandu"})) == "2026-10-02T20:15 (+05:45)"
    assert clock.local_time("Denver").utc_offset == "-06:00"
    assert call(server, "tz", {"x": "Atlantis"})["isError"] is True


def test_each_build_is_a_fresh_server():
    first, second = weather.build_server(), weather.build_server()
    assert first is not second
    first.remove_tool("weather")
    assert list(definitions(second)) == ["weather", "get_daily_forecast"]


# --- exact forecasts, defaults and refusals --------------------------------------------------------------

OSLO_METRIC = [  # today's 8.0/2.0 °C plus the daily swing (0, +1.5, -2, +0.5, +3, -1, +2; half of it on the low)
    {"date": "2026-10-02", "high": 8.0, "low": 2.0, "conditions": "rain"},
    {"date": "2026-10-03", "high": 9.5, "low": 2.75, "conditions": "cloudy"},
    {"date": "2026-10-04", "high": 6.0, "low": 1.0, "conditions": "cloudy"},
    {"date": "2026-10-05", "high": 8.5, "low": 2.25, "conditions": "rain"},
    {"date": "2026-10-06", "high": 11.0, "low": 3.5, "conditions": "cloudy"},
    {"date": "2026-10-07", "high": 7.0, "low": 1.5, "conditions": "cloudy"},
    {"date": "2026-10-08", "high": 10.0, "low": 3.0, "conditions": "rain"},
]
OSLO_IMPERIAL_HIGHS_LOWS = [(46.4, 35.6), (49.1, 37.0), (42.8, 33.8), (47.3, 36.0), (51.8, 38.3), (44.6, 34.7),
                            (50.0, 37.4)]


def test_a_week_in_oslo_in_celsius_day_by_day():
    result = call(weather.build_server(), "get_daily_forecast", {"city": "oslo", "days": 7})
    assert result["structuredContent"] == {"city": "Oslo", "units": "metric", "days": OSLO_METRIC}
    assert [day.model_dump() for day in weather.fetch_metric_forecast("c-3143244", 7)] == OSLO_METRIC


def test_a_week_in_oslo_in_fahrenheit_converts_both_high_and_low_to_one_decimal():
    result = call(weather.build_server(), "get_daily_forecast", {"city": "Oslo", "days": 7, "units": "imperial"})
    days = result["structuredContent"]["days"]
    assert [(day["high"], day["low"]) for day in days] == OSLO_IMPERIAL_HIGHS_LOWS
    assert [day["conditions"] for day in days] == [day["conditions"] for day in OSLO_METRIC]


def test_the_backend_defaults_are_three_days_in_celsius():
    forecast = weather.daily_forecast("Paris")
    assert forecast.units == "metric"
    assert [(day.date, day.high, day.low, day.conditions) for day in forecast.days] == [
        ("2026-10-02", 16.0, 9.0, "cloudy"), ("2026-10-03", 17.5, 9.75, "clear"), ("2026-10-04", 14.0, 8.0, "rain")]


def test_conversion_keeps_celsius_as_is_and_rounds_fahrenheit_to_one_decimal():
    assert weather.convert_temperature(20.0, "metric") == 20.0
    assert weather.convert_temperature(2.75, "metric") == 2.75
    assert weather.convert_temperature(10.01, "imperial") == 50.0  # 50.018
    assert weather.convert_temperature(2.75, "imperial") == 37.0  # 36.95


def test_an_unknown_city_id_names_itself_in_the_backend_error():
    with pytest.raises(KeyError) as raised:
        weather.fetch_metric_forecast("c-0", 1)
    assert raised.value.args == ("c-0",)


def test_the_whole_refusal_for_an_empty_or_unknown_city():
    server = weather.build_server()
    assert text(call(server, "get_daily_forecast", {"city": "  "})) == (
        "Error executing tool get_daily_forecast: city is empty. Pass one city name spelled out in full, "
        "e.g. 'Denver'.")
    assert text(call(server, "get_daily_forecast", {"city": " Atlantis "})) == (
        "Error executing tool get_daily_forecast: Unknown city 'Atlantis'. Pass one city name spelled out in "
        "full; this server knows: Denver, Des Moines, Nairobi, Oslo, Paris.")


@pytest.mark.parametrize("build, name", [(weather.build_server, "weather"),
                                         (weather.build_chain_server, "weather-chain")])
def test_each_server_reports_its_own_name(build, name):
    assert server_info(build()).name == name
