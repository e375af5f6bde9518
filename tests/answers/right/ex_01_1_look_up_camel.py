"""camelCase name, description= argument, when and when-not in one sentence after the what."""

from typing import Annotated

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import clock


def answer():
    server = MCPServer("clock", log_level="WARNING")

    @server.tool(name="lookUpLocalTime", description=(
        "Returns the current local date and time and the UTC offset of one named city. "
        "Helpful when a person wants to know the time right now somewhere, but avoid it for converting "
        "times between zones or for dates in the past."))
    def look_up(city: Annotated[str, Field(description="The city, spelled out, e.g. Nairobi")]) -> clock.LocalTime:
        return clock.local_time(city)

    return server
