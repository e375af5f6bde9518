"""Strict days (a JSON integer only: 3.0 is refused, which the text allows), and a parameter description whose
numbers stay within 1-7."""

from typing import Annotated, Literal

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import weather


def answer():
    server = MCPServer("forecast", log_level="WARNING")

    @server.tool()
    def get_daily_forecast(
        city: str,
        days: Annotated[int, Field(ge=1, le=7, strict=True, description="How many days, 1 to 7.")] = 3,
        units: Literal["metric", "imperial"] = "metric",
    ) -> weather.Forecast:
        """Daily high and low for a city, for the next 1 to 7 days."""
        return weather.daily_forecast(city, days, units)

    return server
