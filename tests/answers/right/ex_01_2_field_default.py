"""Field(default=...) instead of = default; units with Field too; a helper."""

from typing import Literal

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import weather


def _forecast(city, days, units):
    return weather.daily_forecast(city, days, units)


def answer():
    server = MCPServer("forecast", log_level="WARNING")

    @server.tool()
    def get_daily_forecast(
        city: str = Field(description="City"),
        days: int = Field(default=3, ge=1, le=7),
        units: Literal["imperial", "metric"] = Field(default="metric", description="Units"),
    ) -> weather.Forecast:
        """Forecast."""
        return _forecast(city, days, units)

    return server
