"""Shows an enum for units through json_schema_extra, but the type is a plain str: nothing enforces it."""

from typing import Annotated, Literal

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import weather

EXPECT = 'refuse any other units'

def answer():
    server = MCPServer("forecast", log_level="WARNING")

    @server.tool()
    def get_daily_forecast(city: str, days: Annotated[int, Field(ge=1, le=7)] = 3,
                           units: Annotated[str, Field(json_schema_extra={"enum": ["metric", "imperial"]})] = "metric",
                           ) -> weather.Forecast:
        """Daily high, low and conditions for one city, for 1 to 7 days."""
        return weather.daily_forecast(city, days, "imperial" if units == "imperial" else "metric")

    return server
