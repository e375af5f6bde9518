"""kebab-case name, the model built by hand from the backend's answer, seed-001 style limits."""

from typing import Annotated

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import clock


def answer():
    server = MCPServer("clock", log_level="WARNING")

    @server.tool(name="show-local-time")
    def show(city: Annotated[str, Field(description="Name of one city")]) -> clock.LocalTime:
        """Shows the current local time and UTC offset in a city.

        Call this tool whenever the user asks what time it is in some city.
        This tool does not convert times between time zones, and it is never the right tool for historical times.
        """
        found = clock.local_time(city)
        return clock.LocalTime(city=found.city, local_time=found.local_time, utc_offset=found.utc_offset)

    return server
