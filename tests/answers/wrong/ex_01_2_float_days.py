"""days as a float: 2.5 days is accepted."""

from typing import Annotated, Literal

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import weather

EXPECT = "type number"


def answer():
    server = MCPServer("forecast", log_level="WARNING")

    @server.tool()
    def get_daily_forecast(
        city: str,
        days: Annotated[float, Field(ge=1, le=7)] = 3,
        units: Literal["metric", "imperial"] = "metric",
    ) -> weather.Forecast:
        """Forecast."""
        return weather.daily_forecast(city, int(days), units)

    return server
