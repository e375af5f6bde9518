"""The teammate's draft, unchanged: required priority, limit up to 20, count instead of total."""

from typing import Literal

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel

from course_lib.servers import evolving

EXPECT = 'finds no breaking change'

Priority = Literal["low", "normal", "high", "urgent"]
REOPEN = ("Reopen a closed ticket and return it. Use it when a solved problem comes back. "
          "Do not use it for a new problem; open a new ticket.")
TICKETS = evolving.seed_tickets()


class TicketCount(BaseModel):
    """A search result with count instead of total."""

    tickets: list[evolving.Ticket]
    count: int


def answer() -> MCPServer:
    server = MCPServer("helpdesk", log_level="WARNING")
    tickets = evolving.seed_tickets()

    def find(ticket_id: str) -> evolving.Ticket:
        if ticket_id not in tickets:
            raise ToolError(f"No ticket {ticket_id}. Use search_tickets to find the id.")
        return tickets[ticket_id]

    @server.tool(description=evolving.GET, annotations=evolving.READ_HINTS)
    def get_ticket(ticket_id: evolving.TicketId) -> evolving.Ticket:
        return find(ticket_id)

    @server.tool(description=evolving.CREATE)
    def create_ticket(title: evolving.Title, priority: Priority = "normal") -> evolving.Ticket:
        ticket = evolving.Ticket(id=f"T-{len(tickets) + 1}", title=title, priority=priority, status="open")
        tickets[ticket.id] = ticket
        return ticket

    @server.tool(description=evolving.SEARCH, annotations=evolving.READ_HINTS)
    def search_tickets(query: evolving.Query, priority: Priority, limit: evolving.limit_up_to(20) = 10) -> TicketCount:
        found = [t for t in reversed(tickets.values())
                 if query.casefold() in t.title.casefold() and t.priority == priority]
        return TicketCount(tickets=found[:limit], count=len(found))

    @server.tool(description=evolving.CLOSE, annotations=evolving.CLOSE_HINTS)
    def close_ticket(ticket_id: evolving.TicketId, resolution: evolving.Resolution) -> evolving.Ticket:
        tickets[ticket_id] = find(ticket_id).model_copy(update={"status": "closed"})
        return tickets[ticket_id]

    @server.tool(description=REOPEN, annotations=evolving.CLOSE_HINTS)
    def reopen_ticket(ticket_id: evolving.TicketId) -> evolving.Ticket:
        tickets[ticket_id] = find(ticket_id).model_copy(update={"status": "open"})
        return tickets[ticket_id]

    return server
