"""Describes the parameter, but calls it place instead of city."""

from typing import Annotated

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import clock

EXPECT = 'take one parameter, city'

def answer():
    server = MCPServer("clock", log_level="WARNING")

    @server.tool(description="Current local time and UTC offset for one city. Use it when someone asks the time "
                             "now in a city. Do not use it to convert times between zones.")
    def get_local_time(place: Annotated[str, Field(description="City name, e.g. 'Tokyo'.")]) -> clock.LocalTime:
        return clock.local_time(place)

    return server
