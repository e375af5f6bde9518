"""A helper does the chain and returns a dict; the tool is annotated with Forecast."""

from typing import Annotated, Literal

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from course_lib.servers import weather


def _chain(city, days, units):
    city_id = weather.lookup_city_id(city)
    if city_id is None:
        raise ToolError(f"Unknown city: {city}")
    days_out = [dict(d.model_dump(), high=weather.convert_temperature(d.high, units),
                     low=weather.convert_temperature(d.low, units))
                for d in weather.fetch_metric_forecast(city_id, days)]
    return {"city": weather.city_name(city_id), "units": units, "days": days_out}


def answer():
    server = MCPServer("forecast", log_level="WARNING")

    @server.tool(description="Daily high, low and conditions for a city, 1 to 7 days.")
    def get_daily_forecast(
        city: Annotated[str, Field(min_length=1)],
        days: Annotated[int, Field(ge=1, le=7)] = 3,
        units: Literal["metric", "imperial"] = "metric",
    ) -> weather.Forecast:
        return weather.Forecast.model_validate(_chain(city, days, units))

    return server
