"""An unseen answer (unseen11 wrongB, M1): days bounded but required (no default); units is right. Its message
named units twice, because the units probes left days out, with the field name cut from pydantic's text."""

from typing import Annotated, Literal

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import weather

EXPECT = "expected your answer to give days the default 3; found default None"
NOT_SAID = ("units", "pydantic.dev")


def answer():
    server = MCPServer("forecast", log_level="WARNING")

    @server.tool(description="Daily forecast for one city for up to 7 days.")
    def get_daily_forecast(city: str, days: Annotated[int, Field(ge=1, le=7)],
                           units: Literal["metric", "imperial"] = "metric") -> weather.Forecast:
        return weather.daily_forecast(city, days, units)

    return server
