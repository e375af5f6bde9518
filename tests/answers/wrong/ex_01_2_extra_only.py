"""Puts the bounds in json_schema_extra: the schema shows them, nothing enforces them."""

from typing import Annotated, Literal

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import weather

EXPECT = "refuse days outside 1-7"


def answer():
    server = MCPServer("forecast", log_level="WARNING")

    @server.tool()
    def get_daily_forecast(
        city: str,
        days: Annotated[int, Field(json_schema_extra={"minimum": 1, "maximum": 7})] = 3,
        units: Literal["metric", "imperial"] = "metric",
    ) -> weather.Forecast:
        """Forecast."""
        return weather.daily_forecast(city, days, units)

    return server
