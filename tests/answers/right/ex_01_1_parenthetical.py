"""A limit inside the first sentence, a when in the second, an Args-free docstring on one line each."""

from typing import Annotated

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import clock


def answer():
    server = MCPServer("clock", log_level="WARNING")

    @server.tool(name="provide_local_time")
    def local(city: Annotated[str, Field(description="Which city (English name).")]) -> clock.LocalTime:
        """The local date and time in one city right now (not for converting times between zones).
        Ideal for questions such as 'what time is it in Tokyo?'."""
        return clock.local_time(city)

    return server
