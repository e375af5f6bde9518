"""Adds kelvin to the choice."""

from typing import Annotated, Literal

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import weather

EXPECT = "kelvin"


def answer():
    server = MCPServer("forecast", log_level="WARNING")

    @server.tool()
    def get_daily_forecast(
        city: str,
        days: Annotated[int, Field(ge=1, le=7)] = 3,
        units: Literal["metric", "imperial", "kelvin"] = "metric",
    ) -> weather.Forecast:
        """Forecast."""
        return weather.daily_forecast(city, days, "imperial" if units == "imperial" else "metric")

    return server
