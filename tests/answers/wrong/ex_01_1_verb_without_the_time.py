"""A verb + object name, but the object is not what the tool gets: get_city_info says nothing of the time."""

from typing import Annotated

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import clock

EXPECT = "a later word containing `time`"


def answer():
    server = MCPServer("clock", log_level="WARNING")

    @server.tool()
    def get_city_info(city: Annotated[str, Field(description="City name, e.g. 'Oslo'.")]) -> clock.LocalTime:
        """Current local time and UTC offset for one city.

        Use it when someone asks what time it is now in a named city.
        Do not use it to convert times between zones.
        """
        return clock.local_time(city)

    return server
