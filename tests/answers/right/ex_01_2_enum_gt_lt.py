"""A str Enum for units, exclusive bounds gt=0, lt=8, description as parameter text."""

from enum import Enum
from typing import Annotated

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import weather


class Units(str, Enum):
    metric = "metric"
    imperial = "imperial"


def answer():
    server = MCPServer("forecast", log_level="WARNING")

    @server.tool()
    def get_daily_forecast(
        city: str,
        units: Units = Units.metric,
        days: Annotated[int, Field(gt=0, lt=8, description="How many days")] = 3,
    ) -> weather.Forecast:
        """Daily forecast for one city."""
        return weather.daily_forecast(city, days, units.value)

    return server
