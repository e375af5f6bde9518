"""A when with a negation inside its condition ("Use it when someone does not know the time in a city"): a when
all the same; the when-not is its own sentence."""

from typing import Annotated

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import clock


def answer():
    server = MCPServer("clock", log_level="WARNING")

    @server.tool()
    def get_local_time(city: Annotated[str, Field(description="The city's English name, e.g. Tokyo.")]
                       ) -> clock.LocalTime:
        """Current local time and UTC offset for one city. Use it when someone does not know the time in a city.
        Do not use it to convert a time between zones."""
        return clock.local_time(city)

    return server
