"""retrieve_ verb, TypedDict result, own error for unknown cities, 'instead' phrasing."""

from typing import Annotated, TypedDict

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from course_lib.servers import clock


class CityTime(TypedDict):
    city: str
    local_time: str
    utc_offset: str


def answer():
    server = MCPServer("clock", log_level="WARNING")

    @server.tool()
    def retrieve_city_time(city: Annotated[str, Field(description="A single city name.")]) -> CityTime:
        """Gives the current wall-clock time in a city, with its offset from UTC. Use this for 'what time is it in X?' questions. For time-zone arithmetic or past dates, work it out yourself instead."""
        if city.strip().casefold() not in {c.casefold() for c in clock.known_cities()}:
            raise ToolError(f"No clock for {city!r}; try one of {', '.join(clock.known_cities())}")
        found = clock.local_time(city)
        return CityTime(city=found.city, local_time=found.local_time, utc_offset=found.utc_offset)

    return server
