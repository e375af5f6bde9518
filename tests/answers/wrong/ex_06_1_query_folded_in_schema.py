"""Folds the query's case in a validator: the search finds the same tickets, but the result echoes another query."""

from typing import Annotated, Literal

from mcp.server import MCPServer
from pydantic import AfterValidator, Field

from course_lib.servers import workspace

EXPECT = 'search_tickets("query": "Login") returned'

Query = Annotated[str, Field(min_length=2, max_length=100, description="Words of the title."),
                  AfterValidator(str.casefold)]


def answer():
    server = MCPServer("tickets", log_level="WARNING")
    backend = workspace.Workspace()

    @server.tool()
    def search_tickets(query: Query, status: Literal["open", "pending", "closed"] = "open",
                       limit: Annotated[int, Field(ge=1, le=20)] = 5) -> workspace.TicketList:
        """Support tickets whose title contains every word of the query.

        Use it to find tickets about a problem a customer reported.
        Do not use it to read one ticket whose id you know; call get_ticket.
        """
        return workspace.search_tickets(backend, query, status, limit)

    return server
