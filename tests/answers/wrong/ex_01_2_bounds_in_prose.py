"""Uses an enum for units but leaves days bounded only by the description."""

from typing import Literal

from mcp.server import MCPServer

from course_lib.servers import weather

EXPECT = "show days in the input schema as an integer from 1 to 7"


def answer():
    server = MCPServer("forecast", log_level="WARNING")

    @server.tool()
    def get_daily_forecast(city: str, days: int = 3, units: Literal["metric", "imperial"] = "metric") -> weather.Forecast:
        """Daily forecast for one city. days must be between 1 and 7."""
        return weather.daily_forecast(city, max(1, min(days, 7)), units)

    return server
