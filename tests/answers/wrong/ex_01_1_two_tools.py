"""Keeps the old vague tool next to the new one."""

from typing import Annotated

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import clock

EXPECT = 'register exactly one tool'

def answer():
    server = MCPServer("clock", log_level="WARNING")

    @server.tool()
    def get_local_time(city: Annotated[str, Field(description="City name, e.g. 'Tokyo'.")]) -> clock.LocalTime:
        """Current local time and UTC offset for one city. Use it when someone asks the time now in a city.
        Do not use it to convert times between zones."""
        return clock.local_time(city)

    @server.tool()
    def tz(x: str) -> str:
        """Time."""
        return clock.local_time(x).local_time

    return server
