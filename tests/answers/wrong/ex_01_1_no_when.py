"""Says what and when not, but never when to use it."""

from typing import Annotated

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import clock

EXPECT = 'a description that says when to use the tool'

def answer():
    server = MCPServer("clock", log_level="WARNING")

    @server.tool(description="Current local time and UTC offset for one city. It is read from the city's zone. "
                             "Do not use it to convert times between zones.")
    def get_local_time(city: Annotated[str, Field(description="City name, e.g. 'Tokyo'.")]) -> clock.LocalTime:
        return clock.local_time(city)

    return server
