"""Right schema, but the description still promises up to 14 days: the model reads both and they disagree."""

from typing import Annotated, Literal

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import weather

EXPECT = "the number(s) 14 in"


def answer():
    server = MCPServer("forecast", log_level="WARNING")

    @server.tool()
    def get_daily_forecast(
        city: Annotated[str, Field(description="City name, e.g. 'Oslo'.")],
        days: Annotated[int, Field(ge=1, le=7, description="Number of days, starting today.")] = 3,
        units: Literal["metric", "imperial"] = "metric",
    ) -> weather.Forecast:
        """Daily high, low and conditions for one city, for up to 14 days."""
        return weather.daily_forecast(city, days, units)

    return server
