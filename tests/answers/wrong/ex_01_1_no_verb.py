"""Names the object but not the action."""

from typing import Annotated

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import clock

EXPECT = "opens with a verb"


def answer():
    server = MCPServer("clock", log_level="WARNING")

    @server.tool()
    def local_time(city: Annotated[str, Field(description="City name")]) -> clock.LocalTime:
        """Current local time for one city. Use it when someone asks the time in a city. Do not use it for conversions."""
        return clock.local_time(city)

    return server
