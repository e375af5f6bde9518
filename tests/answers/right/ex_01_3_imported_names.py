"""Backend functions imported by name; conversion via model_copy in a comprehension."""

from typing import Annotated, Literal

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from course_lib.servers.weather import (Forecast, city_name, convert_temperature, fetch_metric_forecast,
                                        lookup_city_id)


def answer():
    server = MCPServer("forecast", log_level="WARNING")

    @server.tool()
    def get_daily_forecast(
        city: Annotated[str, Field(description="City")],
        days: Annotated[int, Field(ge=1, le=7, description="Days")] = 3,
        units: Annotated[Literal["metric", "imperial"], Field(description="Units")] = "metric",
    ) -> Forecast:
        """Forecast."""
        cid = lookup_city_id(city)
        if cid is None:
            raise ToolError("City " + repr(city) + " is not known.")
        conv = lambda v: convert_temperature(v, units)  # noqa: E731
        return Forecast(city=city_name(cid), units=units,
                        days=[d.model_copy(update={"high": conv(d.high), "low": conv(d.low)})
                              for d in fetch_metric_forecast(cid, days)])

    return server
