"""Answers the right time, but as text: the clock's LocalTime never reaches structuredContent."""

from typing import Annotated

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import clock

EXPECT = 'found structuredContent {"result": '


def answer():
    server = MCPServer("clock", log_level="WARNING")

    @server.tool()
    def get_local_time(city: Annotated[str, Field(description="City name, e.g. 'Oslo'.")]) -> str:
        """Current local time and UTC offset for one city.

        Use it when someone asks what time it is now in a named city.
        Do not use it to convert times between zones.
        """
        found = clock.local_time(city)
        return f"{found.city}: {found.local_time} (UTC{found.utc_offset})"

    return server
