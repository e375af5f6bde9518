"""query's lengths sit only in json_schema_extra: the schema shows them, nothing enforces them."""

from typing import Annotated, Literal

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import workspace

EXPECT = "query"


def answer():
    server = MCPServer("tickets", log_level="WARNING")
    backend = workspace.Workspace()

    @server.tool()
    def search_tickets(
        query: Annotated[str, Field(json_schema_extra={"minLength": 2, "maxLength": 100})],
        status: Literal["open", "pending", "closed"] = "open",
        limit: Annotated[int, Field(ge=1, le=20)] = 5,
    ) -> workspace.TicketList:
        """Support tickets whose title contains every word of the query.

        Use it to find tickets about a problem a customer reported.
        Do not use it to read one ticket whose id you know; call get_ticket.
        """
        return workspace.search_tickets(backend, query, status, limit)

    return server
