"""Names get_ticket only in a when sentence; no sentence limits use."""

from typing import Annotated, Literal

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import workspace

EXPECT = "a sentence that limits its use and points to get_ticket"


def answer():
    server = MCPServer("tickets", log_level="WARNING")
    backend = workspace.Workspace()

    @server.tool()
    def search_tickets(
        query: Annotated[str, Field(min_length=2, max_length=100)],
        status: Literal["open", "pending", "closed"] = "open",
        limit: Annotated[int, Field(ge=1, le=20)] = 5,
    ) -> workspace.TicketList:
        """Support tickets whose title contains every word of the query.

        Use it to find tickets about a problem, then call get_ticket for details.
        """
        return workspace.search_tickets(backend, query, status, limit)

    return server
