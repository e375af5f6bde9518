"""Enum units, exclusive bounds, builds days in a loop, parameters in another order."""

from enum import Enum
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from course_lib.servers import weather


class Units(str, Enum):
    METRIC = "metric"
    IMPERIAL = "imperial"


def answer():
    server = MCPServer("forecast", log_level="WARNING")

    @server.tool()
    def get_daily_forecast(
        city: str,
        units: Units = Units.METRIC,
        days: Annotated[int, Field(gt=0, lt=8)] = 3,
    ) -> weather.Forecast:
        """Daily forecast for one city."""
        city_id = weather.lookup_city_id(city)
        if not city_id:
            raise ToolError(f"I do not know the city {city}; spell it out in full.")
        out = []
        for day in weather.fetch_metric_forecast(city_id, days):
            out.append(weather.DayForecast(date=day.date, conditions=day.conditions,
                                           high=weather.convert_temperature(day.high, units.value),
                                           low=weather.convert_temperature(day.low, units.value)))
        return weather.Forecast(city=weather.city_name(city_id), units=units.value, days=out)

    return server
