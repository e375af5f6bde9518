"""Constrains everything, but renames the tool to get_forecast."""

from typing import Annotated, Literal

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import weather

EXPECT = 'keep one tool named get_daily_forecast'

def answer():
    server = MCPServer("forecast", log_level="WARNING")

    @server.tool()
    def get_forecast(city: str, days: Annotated[int, Field(ge=1, le=7)] = 3,
                     units: Literal["metric", "imperial"] = "metric") -> weather.Forecast:
        """Daily high, low and conditions for one city, for 1 to 7 days."""
        return weather.daily_forecast(city, days, units)

    return server
