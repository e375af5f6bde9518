"""Calls weather.daily_forecast instead of the three backend steps."""

from typing import Annotated, Literal

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from course_lib.servers import weather

EXPECT = "found weather.daily_forecast called"


def answer():
    server = MCPServer("forecast", log_level="WARNING")

    @server.tool()
    def get_daily_forecast(city: str, days: Annotated[int, Field(ge=1, le=7)] = 3,
                           units: Literal["metric", "imperial"] = "metric") -> weather.Forecast:
        """Forecast."""
        return weather.daily_forecast(city, days, units)

    return server
