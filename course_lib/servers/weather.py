"""Lesson 01's weather server: a vague tool, its intent-level rewrite, and the chain it replaces.

The backend is a small offline table with a fixed start date, so every call is reproducible.
It has the three-step shape of many real weather APIs: look up a city id, fetch a metric
forecast by id, convert units. `get_daily_forecast` hides those steps behind one intent.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Annotated, Literal

from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from pydantic import BaseModel, Field

from course_lib.servers.base import new_server, tool

Units = Literal["metric", "imperial"]
Conditions = Literal["clear", "cloudy", "rain", "snow"]

FORECAST_START = date(2026, 10, 2)
"""The simulated 'today' of every forecast (a fixed date keeps lesson outputs identical)."""
MAX_DAYS = 7

# city name -> (backend id, today's high and low in °C, the weather pattern it cycles through)
_CITIES: dict[str, tuple[str, float, float, tuple[Conditions, ...]]] = {
    "Denver": ("c-5419384", 9.0, -1.0, ("clear", "cloudy", "snow")),
    "Des Moines": ("c-4853828", 12.0, 4.0, ("cloudy", "rain", "clear")),
    "Nairobi": ("c-184745", 24.0, 13.0, ("clear", "clear", "rain")),
    "Oslo": ("c-3143244", 8.0, 2.0, ("rain", "cloudy", "cloudy")),
    "Paris": ("c-2988507", 16.0, 9.0, ("cloudy", "clear", "rain")),
}
_DAILY_SWING = (0.0, 1.5, -2.0, 0.5, 3.0, -1.0, 2.0)


class DayForecast(BaseModel):
    """One day of a forecast."""

    date: str = Field(description="ISO date, YYYY-MM-DD")
    high: float
    low: float
    conditions: Conditions


class Forecast(BaseModel):
    """A daily forecast for one city."""

    city: str
    units: Units
    days: list[DayForecast]


# --- the backend: three steps a model should never have to sequence itself -------------------


def known_cities() -> list[str]:
    """The city names the backend knows, sorted."""
    return sorted(_CITIES)


def lookup_city_id(name: str) -> str | None:
    """Step 1: the backend id of a city name (case and spacing forgiven), or None."""
    wanted = " ".join(name.split()).casefold()
    for city, (city_id, *_rest) in _CITIES.items():
        if city.casefold() == wanted:
            return city_id
    return None


def fetch_metric_forecast(city_id: str, days: int) -> list[DayForecast]:
    """Step 2: `days` days of forecast in °C for a backend city id."""
    for _city, (known_id, high, low, pattern) in _CITIES.items():
        if known_id == city_id:
            return [
                DayForecast(
                    date=(FORECAST_START + timedelta(days=offset)).isoformat(),
                    high=high + _DAILY_SWING[offset],
                    low=low + _DAILY_SWING[offset] / 2,
                    conditions=pattern[offset % len(pattern)],
                )
                for offset in range(days)
            ]
    raise KeyError(city_id)


def convert_temperature(celsius: float, units: Units) -> float:
    """Step 3: a °C value in the requested units, rounded to one decimal."""
    return round(celsius * 9 / 5 + 32, 1) if units == "imperial" else celsius


def city_name(city_id: str) -> str:
    """The display name of a backend city id."""
    return next(city for city, (known_id, *_rest) in _CITIES.items() if known_id == city_id)


def daily_forecast(city: str, days: int = 3, units: Units = "metric") -> Forecast:
    """The three backend steps in order; a `ToolError` with a next step on bad input."""
    if not city.strip():
        raise ToolError("city is empty. Pass one city name spelled out in full, "
                        "e.g. 'Denver'.")
    city_id = lookup_city_id(city)
    if city_id is None:
        raise ToolError(
            f"Unknown city {city.strip()!r}. Pass one city name spelled out in full; "
            f"this server knows: {', '.join(known_cities())}."
        )
    forecast_days = [
        day.model_copy(update={
            "high": convert_temperature(day.high, units),
            "low": convert_temperature(day.low, units),
        })
        for day in fetch_metric_forecast(city_id, days)
    ]
    return Forecast(city=city_name(city_id), units=units, days=forecast_days)


# --- servers ------------------------------------------------------------------------------------


def build_server():
    """A fresh weather server: the vague `weather` tool and its rewrite."""
    server = new_server("weather")

    @tool(server)
    def weather(q: str) -> str:
        """Weather tool."""
        return f"{q}: around 12 and cloudy, maybe rain later."

    @tool(server, title="Daily forecast",
          annotations=ToolAnnotations(read_only_hint=True, open_world_hint=True))
    def get_daily_forecast(
        city: Annotated[str, Field(
            min_length=1, max_length=100,
            description="City name, e.g. 'Des Moines'. One city per call.")],
        days: Annotated[int, Field(
            ge=1, le=MAX_DAYS, description="Number of days, starting today.")] = 3,
        units: Units = "metric",
    ) -> Forecast:
        """Daily high, low and conditions for one city, for 1 to 7 days starting today.

        Use it for questions about the coming days' weather in a named city.
        Do not use it for past weather or for the conditions at this moment.
        """
        return daily_forecast(city, days, units)

    return server


def build_chain_server():
    """A fresh server that exposes the backend's three steps as three tools (the anti-pattern)."""
    server = new_server("weather-chain")

    @tool(server)
    def get_city_id(name: str) -> str:
        """Look up the internal id of a city. Call this before get_forecast."""
        city_id = lookup_city_id(name)
        if city_id is None:
            raise ToolError(f"Unknown city {name!r}.")
        return city_id

    @tool(server)
    def get_forecast(city_id: str, days: int = 3) -> list[DayForecast]:
        """Get the forecast for a city id, in Celsius. Use convert_units for Fahrenheit."""
        try:
            return fetch_metric_forecast(city_id, max(1, min(days, MAX_DAYS)))
        except KeyError:
            raise ToolError(f"Unknown city id {city_id!r}. Call get_city_id first.") from None

    @tool(server)
    def convert_units(value: Annotated[float, Field(allow_inf_nan=False)], to: str) -> float:
        """Convert a Celsius temperature."""
        return convert_temperature(value, "imperial" if to.lower().startswith(("f", "imp")) else "metric")

    return server
