"""Enum with a description via Annotated, days via conint, default via a constant."""

from enum import Enum
from typing import Annotated

from mcp.server import MCPServer
from pydantic import Field, conint

from course_lib.servers import weather

DEFAULT_DAYS = 3


class UnitSystem(str, Enum):
    METRIC = "metric"
    IMPERIAL = "imperial"


def answer():
    server = MCPServer("forecast", log_level="WARNING")

    @server.tool()
    def get_daily_forecast(
        city: Annotated[str, Field(description="City")],
        days: conint(ge=1, le=7) = DEFAULT_DAYS,
        units: Annotated[UnitSystem, Field(description="metric (°C) or imperial (°F)")] = UnitSystem.METRIC,
    ) -> weather.Forecast:
        """Forecast for a city."""
        return weather.daily_forecast(city, days, UnitSystem(units).value)

    return server
