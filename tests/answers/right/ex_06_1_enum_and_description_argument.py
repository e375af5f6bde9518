"""A str Enum for status, the description passed as description=, limit bounds as gt/lt."""

from enum import Enum
from typing import Annotated

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import workspace


class Status(str, Enum):
    open = "open"
    pending = "pending"
    closed = "closed"


def answer():
    server = MCPServer("tickets", log_level="WARNING")
    backend = workspace.Workspace()

    @server.tool(description="Tickets whose title holds every query word. Use it when a customer describes a "
                             "problem. Avoid it for a ticket whose id you have: get_ticket reads it.")
    def search_tickets(
        query: Annotated[str, Field(min_length=2, max_length=100)],
        status: Status = Status.open,
        limit: Annotated[int, Field(gt=0, lt=21)] = 5,
    ) -> workspace.TicketList:
        return workspace.search_tickets(backend, query, Status(status).value, limit)

    return server
