"""Merges the steps but never converts to the requested units."""

from typing import Literal

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import weather

EXPECT = "units='imperial'); found days[0].high: expected"


def answer():
    server = MCPServer("forecast", log_level="WARNING")

    @server.tool()
    def get_daily_forecast(city: str, days: int = 3, units: Literal["metric", "imperial"] = "metric") -> weather.Forecast:
        """Daily forecast for one city."""
        city_id = weather.lookup_city_id(city)
        if city_id is None:
            raise ToolError(f"Unknown city {city!r}.")
        return weather.Forecast(city=weather.city_name(city_id), units=units,
                                days=weather.fetch_metric_forecast(city_id, days))

    return server
