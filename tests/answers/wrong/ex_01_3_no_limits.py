"""Merges the chain but drops the schema limits: days=30 and units='kelvin' reach the body."""

from typing import Annotated, Literal

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from course_lib.servers import weather

EXPECT = "with the limits of exercise 1.2"


def answer():
    server = MCPServer("forecast", log_level="WARNING")

    @server.tool()
    def get_daily_forecast(city: str, days: int = 3, units: str = "metric") -> weather.Forecast:
        """Forecast."""
        city_id = weather.lookup_city_id(city)
        if city_id is None:
            raise ToolError(f"Unknown city {city}")
        days_out = [d.model_copy(update={"high": weather.convert_temperature(d.high, units),
                                         "low": weather.convert_temperature(d.low, units)})
                    for d in weather.fetch_metric_forecast(city_id, min(days, 7))]
        return weather.Forecast(city=weather.city_name(city_id), units=units, days=days_out)

    return server
