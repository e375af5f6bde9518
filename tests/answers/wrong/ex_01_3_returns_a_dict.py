"""Merges the chain, but returns a plain dict: no Forecast output schema."""

from typing import Annotated, Literal

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from course_lib.servers import weather

EXPECT = 'return a weather.Forecast'

def answer():
    server = MCPServer("forecast", log_level="WARNING")

    @server.tool()
    def get_daily_forecast(city: str, days: Annotated[int, Field(ge=1, le=7)] = 3,
                           units: Literal["metric", "imperial"] = "metric") -> dict:
        """Daily high, low and conditions for one city, for 1 to 7 days."""
        city_id = weather.lookup_city_id(city)
        if city_id is None:
            raise ToolError(f"Unknown city {city!r}. Pass one city name spelled out in full.")
        days_out = [day.model_copy(update={"high": weather.convert_temperature(day.high, units),
                                           "low": weather.convert_temperature(day.low, units)}).model_dump()
                    for day in weather.fetch_metric_forecast(city_id, days)]
        return {"city": weather.city_name(city_id), "units": units, "days": days_out}

    return server
