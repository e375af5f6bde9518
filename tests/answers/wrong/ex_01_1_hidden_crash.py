"""Raises a plain exception for an unknown city: the model reads only 'Error executing tool'."""

from typing import Annotated

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import clock

EXPECT = "a hidden crash"


def answer():
    server = MCPServer("clock", log_level="WARNING")

    @server.tool()
    def get_local_time(city: Annotated[str, Field(description="City name")]) -> clock.LocalTime:
        """Current local time for one city. Use it when someone asks the time in a city. Do not use it for conversions."""
        if city.strip().title() not in clock.known_cities():
            raise ValueError(f"unknown city {city}")
        return clock.local_time(city)

    return server
