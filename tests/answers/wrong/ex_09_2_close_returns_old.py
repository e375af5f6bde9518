"""close_ticket stores the closed ticket but returns it as it was (still open), unlike v1."""

from typing import Literal

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import evolving

EXPECT = 'answer every recorded v1 call'

Priority = Literal["low", "normal", "high", "urgent"]
REOPEN = ("Reopen a closed ticket and return it. Use it when a solved problem comes back. "
          "Do not use it for a new problem; open a new ticket.")


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
    def search_tickets(query: evolving.Query, limit: evolving.limit_up_to(50) = 10,
                       priority: Priority | None = None) -> evolving.TicketPageV1:
        found = [t for t in reversed(tickets.values())
                 if query.casefold() in t.title.casefold() and priority in (None, t.priority)]
        return evolving.TicketPageV1(tickets=found[:limit], total=len(found))

    @server.tool(description=evolving.CLOSE, annotations=evolving.CLOSE_HINTS)
    def close_ticket(ticket_id: evolving.TicketId, resolution: evolving.Resolution) -> evolving.Ticket:
        old = find(ticket_id)
        tickets[ticket_id] = old.model_copy(update={"status": "closed"})
        return old

    @server.tool(description=REOPEN, annotations=evolving.CLOSE_HINTS)
    def reopen_ticket(ticket_id: evolving.TicketId) -> evolving.Ticket:
        tickets[ticket_id] = find(ticket_id).model_copy(update={"status": "open"})
        return tickets[ticket_id]

    return server
