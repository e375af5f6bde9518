"""Constraints through reusable Annotated aliases; the body calls a helper; 'Use the tool when' phrasing."""

from typing import Annotated, Literal

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import workspace

Query = Annotated[str, Field(min_length=2, max_length=100)]
Limit = Annotated[int, Field(ge=1, le=20)]
Status = Literal["open", "pending", "closed"]


def _search(backend, query, status, limit):
    return workspace.search_tickets(backend, query=query, status=status, limit=limit)


def answer():
    server = MCPServer("tickets", log_level="WARNING")
    backend = workspace.Workspace()

    @server.tool()
    def search_tickets(query: Query, status: Status = "open", limit: Limit = 5) -> workspace.TicketList:
        """Returns the tickets whose title contains all words of the query.

        Use the tool when a customer describes a problem and you need matching tickets.
        When you already know a ticket's id, call get_ticket instead of this tool.
        """
        return _search(backend, query, status, limit)

    return server
