"""The tickets behind a small class; tools registered with add_tool."""

from typing import Literal

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import evolving

Priority = Literal["low", "normal", "high", "urgent"]


class Desk:
    def __init__(self) -> None:
        self.tickets = evolving.seed_tickets()

    def get(self, ticket_id: str) -> evolving.Ticket:
        if ticket_id not in self.tickets:
            raise ToolError(f"Ticket {ticket_id} does not exist. Search for it with search_tickets.")
        return self.tickets[ticket_id]

    def set_status(self, ticket_id: str, status: str) -> evolving.Ticket:
        self.tickets[ticket_id] = self.get(ticket_id).model_copy(update={"status": status})
        return self.tickets[ticket_id]


def answer() -> MCPServer:
    server = MCPServer("helpdesk", log_level="WARNING")
    desk = Desk()

    def get_ticket(ticket_id: evolving.TicketId) -> evolving.Ticket:
        return desk.get(ticket_id)

    def create_ticket(title: evolving.Title, priority: Priority = "normal") -> evolving.Ticket:
        ticket = evolving.Ticket(id=f"T-{len(desk.tickets) + 1}", title=title, priority=priority, status="open")
        desk.tickets[ticket.id] = ticket
        return ticket

    def search_tickets(query: evolving.Query, limit: evolving.limit_up_to(50) = 10,
                       priority: Priority | None = None) -> evolving.TicketPageV1:
        matches = [t for t in desk.tickets.values() if query.casefold() in t.title.casefold()]
        matches = [t for t in matches if priority is None or t.priority == priority]
        matches.sort(key=lambda t: int(t.id.split("-")[1]), reverse=True)
        return evolving.TicketPageV1(tickets=matches[:limit], total=len(matches))

    def close_ticket(ticket_id: evolving.TicketId, resolution: evolving.Resolution) -> evolving.Ticket:
        return desk.set_status(ticket_id, "closed")

    def reopen_ticket(ticket_id: evolving.TicketId) -> evolving.Ticket:
        return desk.set_status(ticket_id, "open")

    server.add_tool(get_ticket, description=evolving.GET, annotations=evolving.READ_HINTS)
    server.add_tool(create_ticket, description=evolving.CREATE)
    server.add_tool(search_tickets, description=evolving.SEARCH, annotations=evolving.READ_HINTS)
    server.add_tool(close_ticket, description=evolving.CLOSE, annotations=evolving.CLOSE_HINTS)
    server.add_tool(reopen_ticket, description="Reopen a closed ticket and return it. Use it when the problem "
                                               "is back. Do not use it for a new problem.",
                    annotations=evolving.CLOSE_HINTS)
    return server
