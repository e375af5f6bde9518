"""The schema is right and the tool description clean, but the days parameter's description promises 14 days."""

from typing import Annotated, Literal

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import weather

EXPECT = "the parameters' descriptions from contradicting the schema"


def answer():
    server = MCPServer("forecast", log_level="WARNING")

    @server.tool()
    def get_daily_forecast(
        city: str,
        days: Annotated[int, Field(ge=1, le=7, description="How many days, up to 14.")] = 3,
        units: Literal["metric", "imperial"] = "metric",
    ) -> weather.Forecast:
        """Daily high and low for a city."""
        return weather.daily_forecast(city, days, units)

    return server
