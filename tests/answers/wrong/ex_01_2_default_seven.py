"""days defaults to 7 instead of 3."""

from typing import Annotated, Literal

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import weather

EXPECT = "give days the default 3"


def answer():
    server = MCPServer("forecast", log_level="WARNING")

    @server.tool()
    def get_daily_forecast(
        city: str,
        days: Annotated[int, Field(ge=1, le=7)] = 7,
        units: Literal["metric", "imperial"] = "metric",
    ) -> weather.Forecast:
        """Forecast."""
        return weather.daily_forecast(city, days, units)

    return server
