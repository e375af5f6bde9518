"""Hard-codes Tokyo."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from course_lib.servers import clock

EXPECT = "city='  Kathmandu ' should work"


def answer():
    server = MCPServer("clock", log_level="WARNING")

    @server.tool()
    def get_local_time(city: Annotated[str, Field(description="City name")]) -> clock.LocalTime:
        """Current local time for one city. Use it when someone asks the time in a city. Do not use it for conversions."""
        if city.lower() == "tokyo":
            return clock.LocalTime(city="Tokyo", local_time="2026-10-02T23:30", utc_offset="+09:00")
        raise ToolError(f"Unknown city {city}")

    return server
