"""Every constraint kept and under budget; its when-not names get_ticket only to wave it away."""

from typing import Annotated, Literal

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import workspace

EXPECT = "get_ticket either"


def answer():
    server = MCPServer("tickets", log_level="WARNING")
    backend = workspace.Workspace()

    @server.tool()
    def search_tickets(
        query: Annotated[str, Field(min_length=2, max_length=100, description="Words in the title.")],
        status: Literal["open", "pending", "closed"] = "open",
        limit: Annotated[int, Field(ge=1, le=20)] = 5,
    ) -> workspace.TicketList:
        """Support tickets whose title contains every word of the query.

        Use it to find tickets about a problem a customer reported.
        Do not use it to read one ticket by its id. Do not bother calling get_ticket either.
        """
        return workspace.search_tickets(backend, query, status, limit)

    return server
