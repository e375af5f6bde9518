"""Rejects bad units inside the function: the model still only sees `type: string`."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from typing import Annotated
from pydantic import Field

from course_lib.servers import weather

EXPECT = "show units in the input schema as a choice of exactly 'metric' and 'imperial'"


def answer():
    server = MCPServer("forecast", log_level="WARNING")

    @server.tool()
    def get_daily_forecast(city: str, days: Annotated[int, Field(ge=1, le=7)] = 3, units: str = "metric") -> weather.Forecast:
        """Daily forecast for one city."""
        if units not in ("metric", "imperial"):
            raise ToolError("units must be metric or imperial")
        return weather.daily_forecast(city, days, units)

    return server
