"""The fixed v2, except that close_ticket refuses a ticket that is already closed (v1 says closing twice changes
nothing, so a v1 client that retries a close now gets an error)."""

from typing import Literal

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import evolving

EXPECT = "call 2 of a fresh build's session"
Priority = Literal["low", "normal", "high", "urgent"]


def answer():
    server = MCPServer("helpdesk", log_level="WARNING")
    tickets = evolving.seed_tickets()
    closed_with: dict[str, str] = {}

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
        found = [t for t in reversed(tickets.values()) if query.casefold() in t.title.casefold()
                 and priority in (None, t.priority)]
        return evolving.TicketPageV1(tickets=found[:limit], total=len(found))

    @server.tool(description=evolving.CLOSE, annotations=evolving.CLOSE_HINTS)
    def close_ticket(ticket_id: evolving.TicketId, resolution: evolving.Resolution) -> evolving.Ticket:
        if ticket_id in closed_with:
            raise ToolError(f"{ticket_id} was closed already: {closed_with[ticket_id]}")
        closed_with[ticket_id] = resolution
        tickets[ticket_id] = find(ticket_id).model_copy(update={"status": "closed"})
        return tickets[ticket_id]

    @server.tool(description="Reopen a closed ticket and return it. Use it when a solved problem comes back.",
                 annotations=evolving.CLOSE_HINTS)
    def reopen_ticket(ticket_id: evolving.TicketId) -> evolving.Ticket:
        closed_with.pop(ticket_id, None)
        tickets[ticket_id] = find(ticket_id).model_copy(update={"status": "open"})
        return tickets[ticket_id]

    return server
