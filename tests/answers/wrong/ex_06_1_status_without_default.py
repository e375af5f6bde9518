"""An unseen answer (unseen11 wrongB, M1): a lean, right search_tickets except that status lost its default (it
became required). Its message also blamed the backend's tickets, with pydantic's text cut before the field name,
for calls that left status out."""

from typing import Annotated, Literal

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import workspace

EXPECT = "found enum ['open', 'pending', 'closed'], default None"
NOT_SAID = ("the backend's tickets", "pydantic.dev")


def answer():
    server = MCPServer("tickets", log_level="WARNING")
    backend = workspace.Workspace()

    @server.tool(description=(
        "Search ticket titles. "
        "Use it to find tickets about a problem a customer reported. "
        "For one ticket whose id you know, call get_ticket instead."))
    def search_tickets(query: Annotated[str, Field(min_length=2, max_length=100)],
                       status: Literal["open", "pending", "closed"],
                       limit: Annotated[int, Field(ge=1, le=20)] = 5) -> workspace.TicketList:
        return workspace.search_tickets(backend, query, status, limit)

    return server
