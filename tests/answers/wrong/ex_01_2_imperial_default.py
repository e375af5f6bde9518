"""Makes imperial the default unit."""

from typing import Annotated, Literal

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import weather

EXPECT = "give units the default 'metric'"

def answer():
    server = MCPServer("forecast", log_level="WARNING")

    @server.tool()
    def get_daily_forecast(city: str, days: Annotated[int, Field(ge=1, le=7)] = 3,
                           units: Literal["metric", "imperial"] = "imperial") -> weather.Forecast:
        """Daily high, low and conditions for one city, for 1 to 7 days."""
        return weather.daily_forecast(city, days, units)

    return server
