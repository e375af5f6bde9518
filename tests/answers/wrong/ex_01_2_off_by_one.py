"""Exclusive bounds off by one: gt=1 refuses days=1."""

from typing import Annotated, Literal

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import weather

EXPECT = "lowest 2, highest 7"


def answer():
    server = MCPServer("forecast", log_level="WARNING")

    @server.tool()
    def get_daily_forecast(
        city: str,
        days: Annotated[int, Field(gt=1, lt=8)] = 3,
        units: Literal["metric", "imperial"] = "metric",
    ) -> weather.Forecast:
        """Forecast."""
        return weather.daily_forecast(city, days, units)

    return server
