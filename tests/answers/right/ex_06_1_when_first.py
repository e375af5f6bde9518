"""The when sentence first, the what second, the when-not as a colon clause; a TypedDict-free plain signature."""

from typing import Annotated, Literal

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import workspace


def answer():
    server = MCPServer("tickets", log_level="WARNING")
    backend = workspace.Workspace()

    @server.tool(description=("Use it when a customer reports a problem. It returns the support tickets whose title "
                              "contains every word of the query. Not for one ticket whose id you know: get_ticket "
                              "reads that."))
    def search_tickets(query: Annotated[str, Field(min_length=2, max_length=100)],
                       limit: Annotated[int, Field(ge=1, le=20)] = 5,
                       status: Literal["pending", "open", "closed"] = "open") -> workspace.TicketList:
        return workspace.search_tickets(backend, query, status, limit)

    return server
