"""Seed 001's style: a when and a when-not in one sentence, the bounds in Field(default=...)."""

from typing import Literal

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import workspace


def answer():
    server = MCPServer("tickets", log_level="WARNING")
    backend = workspace.Workspace()

    @server.tool()
    def search_tickets(
        query: str = Field(min_length=2, max_length=100, description="Title words."),
        status: Literal["open", "pending", "closed"] = Field(default="open"),
        limit: int = Field(default=5, ge=1, le=20),
    ) -> workspace.TicketList:
        """Lists support tickets matching every query word in the title. Call it when a customer reports a problem, but not to fetch a ticket whose id you already have (get_ticket does that)."""
        return workspace.search_tickets(backend, query, status, limit)

    return server
