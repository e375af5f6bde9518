"""A str Enum for status (a $ref in the schema), gt/lt bounds, parameters in another order, description=."""

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

    @server.tool(description=("Find support tickets whose title has all the query's words. Helpful when a customer "
                              "reports a problem. Avoid it for one ticket whose id you have: get_ticket reads it."))
    def search_tickets(
        query: Annotated[str, Field(min_length=2, max_length=100)],
        limit: Annotated[int, Field(gt=0, lt=21)] = 5,
        status: Status = Status.open,
    ) -> workspace.TicketList:
        return workspace.search_tickets(backend, query, Status(status).value, limit)

    return server
