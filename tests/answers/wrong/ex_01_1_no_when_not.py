"""Says what and when, but never when not to use the tool."""

from typing import Annotated

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import clock

EXPECT = "a description that says when not to use the tool"


def answer():
    server = MCPServer("clock", log_level="WARNING")

    @server.tool()
    def get_local_time(city: Annotated[str, Field(description="City name in full.")]) -> clock.LocalTime:
        """Current local time for one city. It returns the UTC offset too. Use it when asked for the time."""
        return clock.local_time(city)

    return server
