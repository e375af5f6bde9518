"""A 'when not' in words only: 'Do not hesitate to use it' limits nothing."""

from typing import Annotated

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import clock

EXPECT = "a description that says when not to use the tool"


def answer():
    server = MCPServer("clock", log_level="WARNING")

    @server.tool()
    def get_local_time(city: Annotated[str, Field(description="City name")]) -> clock.LocalTime:
        """Current local time for one city. Use it when someone asks the time in a city. Do not hesitate to call it for any time question."""
        return clock.local_time(city)

    return server
