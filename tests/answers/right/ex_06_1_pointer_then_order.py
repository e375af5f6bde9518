"""Unseen round 8, reworded: the pointer to get_ticket first, then an order that refers back to it ("For a single
ticket with a known id, get_ticket reads it; do not use this tool for that."); the status an Enum."""

import json
from enum import Enum
from typing import Annotated, Literal
from mcp.server import MCPServer
from pydantic import Field
from course_lib import cost, tokens, wire
from course_lib.servers import workspace

class Status(str, Enum):
    OPEN = "open"
    PENDING = "pending"
    CLOSED = "closed"

def build_lean_server():
    server = MCPServer("tickets", log_level="WARNING")
    backend = workspace.Workspace()

    @server.tool()
    def search_tickets(query: Annotated[str, Field(min_length=2, max_length=100, description="Words in the title")],
                       status: Status = Status.OPEN,
                       limit: Annotated[int, Field(ge=1, le=20)] = 5) -> workspace.TicketList:
        """Finds tickets by title words, filtered by status.

        Use it when a customer reports a problem and you need related tickets.
        For a single ticket with a known id, get_ticket reads it; do not use this tool for that.
        """
        return workspace.search_tickets(backend, query, Status(status).value, limit)

    return server
answer = build_lean_server
