"""An unknown city crashes with a plain exception (the model reads only 'Error executing tool')."""

from typing import Annotated, Literal

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from course_lib.servers import weather

EXPECT = "a hidden crash"


def answer():
    server = MCPServer("forecast", log_level="WARNING")

    @server.tool()
    def get_daily_forecast(city: str, days: Annotated[int, Field(ge=1, le=7)] = 3,
                           units: Literal["metric", "imperial"] = "metric") -> weather.Forecast:
        """Forecast."""
        city_id = weather.lookup_city_id(city)
        days_out = [d.model_copy(update={"high": weather.convert_temperature(d.high, units),
                                         "low": weather.convert_temperature(d.low, units)})
                    for d in weather.fetch_metric_forecast(city_id, days)]
        return weather.Forecast(city=weather.city_name(city_id), units=units, days=days_out)

    return server
