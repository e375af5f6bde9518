"""Gives the tool a good name but keeps the one-word description."""

from mcp.server import MCPServer

from course_lib.servers import clock

EXPECT = "says what the tool returns, before any"


def answer():
    server = MCPServer("clock", log_level="WARNING")

    @server.tool()
    def get_local_time(city: str) -> clock.LocalTime:
        """Time."""
        return clock.local_time(city)

    return server
