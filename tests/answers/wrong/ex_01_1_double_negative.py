"""A 'when not' that limits nothing: a double negative."""

from typing import Annotated

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import clock

EXPECT = "a description that says when not to use the tool"


def answer():
    server = MCPServer("clock", log_level="WARNING")

    @server.tool()
    def get_local_time(city: Annotated[str, Field(description="City name")]) -> clock.LocalTime:
        """Current local time for one city. Use it when someone asks the time in a city. There is no time question you should not use it for."""
        return clock.local_time(city)

    return server
