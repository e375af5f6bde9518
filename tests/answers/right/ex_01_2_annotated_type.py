"""Annotated aliases declared outside, conint-like via annotated_types."""

from typing import Annotated, Literal

import annotated_types
from mcp.server import MCPServer

from course_lib.servers import weather

Days = Annotated[int, annotated_types.Interval(ge=1, le=7)]
UnitsChoice = Literal["metric", "imperial"]


def answer():
    server = MCPServer("forecast", log_level="WARNING")

    @server.tool()
    def get_daily_forecast(city: str, days: Days = 3, units: UnitsChoice = "metric") -> weather.Forecast:
        """Daily high and low for a city."""
        return weather.daily_forecast(city, days, units)

    return server
