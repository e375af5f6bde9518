"""Deletes the Args and Returns sections but keeps the sales pitch and the wordy parameter texts."""

from typing import Annotated, Literal

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import workspace

EXPECT = "at most 200 tokens"


def answer():
    server = MCPServer("tickets", log_level="WARNING")
    backend = workspace.Workspace()

    @server.tool()
    def search_tickets(
        query: Annotated[str, Field(min_length=2, max_length=100, description=(
            "The search query. This is the text that will be used to search the titles of the support tickets "
            "in the ticketing system. It should be a few words, for example 'login error' or 'invoice'. "
            "It must be between 2 and 100 characters long."))],
        status: Annotated[Literal["open", "pending", "closed"], Field(description=(
            "The status of the tickets to search for. This can be one of 'open', 'pending' or 'closed'. "
            "If you do not provide a status, the default value of 'open' is used, so only open tickets "
            "are searched."))] = "open",
        limit: Annotated[int, Field(ge=1, le=20, description=(
            "The maximum number of tickets that this tool will return. It must be a whole number between "
            "1 and 20. The default is 5."))] = 5,
    ) -> workspace.TicketList:
        """This powerful and flexible tool lets you search through all of the support tickets in our ticketing system quickly and easily.

        It looks at the title of every ticket, finds the ones that contain all of the words in your query,
        and can also filter them by their status. It is a great tool whenever you need information about tickets.
        Use it to find tickets about a problem a customer reported.
        Do not use it to read one ticket whose id you already know; call get_ticket for that instead.
        """
        return workspace.search_tickets(backend, query, status, limit)

    return server
