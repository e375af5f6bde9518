"""kebab-case name, returns a string, seed-001 style limits."""

from typing import Annotated

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import clock


def answer():
    server = MCPServer("clock", log_level="WARNING")

    @server.tool(name="show-local-time")
    def show(city: Annotated[str, Field(description="Name of one city")]) -> str:
        """Shows the current local time and UTC offset in a city.

        Call this tool whenever the user asks what time it is in some city.
        This tool does not convert times between time zones, and it is never the right tool for historical times.
        """
        found = clock.local_time(city)
        return f"{found.city}: {found.local_time} (UTC{found.utc_offset})"

    return server
