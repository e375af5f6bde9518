"""priority described with Field(...), placed before limit, the filter applied after the search."""

from typing import Annotated, Literal

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from course_lib.servers import evolving

Priority = Literal["low", "normal", "high", "urgent"]
PriorityFilter = Annotated[Priority | None, Field(description="Only tickets with this priority; all when left out.")]


def _search(tickets: dict, query: str) -> list:
    return [t for t in reversed(list(tickets.values())) if query.casefold() in t.title.casefold()]


def answer() -> MCPServer:
    server = MCPServer("helpdesk", log_level="WARNING")
    tickets = evolving.seed_tickets()

    def find(ticket_id: str) -> evolving.Ticket:
        if ticket_id in tickets:
            return tickets[ticket_id]
        raise ToolError(f"No ticket {ticket_id}. Use search_tickets to find the id.")

    @server.tool(description=evolving.GET, annotations=evolving.READ_HINTS)
    def get_ticket(ticket_id: evolving.TicketId) -> evolving.Ticket:
        return find(ticket_id)

    @server.tool(description=evolving.CREATE)
    def create_ticket(title: evolving.Title, priority: Priority = "normal") -> evolving.Ticket:
        ticket = evolving.Ticket(id=f"T-{len(tickets) + 1}", title=title, priority=priority, status="open")
        tickets[ticket.id] = ticket
        return ticket

    @server.tool(description=evolving.SEARCH, annotations=evolving.READ_HINTS)
    def search_tickets(query: evolving.Query, priority: PriorityFilter = None,
                       limit: evolving.limit_up_to(50) = 10) -> evolving.TicketPageV1:
        found = _search(tickets, query)
        if priority is not None:
            found = [t for t in found if t.priority == priority]
        return evolving.TicketPageV1(tickets=found[:limit], total=len(found))

    @server.tool(description=evolving.CLOSE, annotations=evolving.CLOSE_HINTS)
    def close_ticket(ticket_id: evolving.TicketId, resolution: evolving.Resolution) -> evolving.Ticket:
        tickets[ticket_id] = find(ticket_id).model_copy(update={"status": "closed"})
        return tickets[ticket_id]

    @server.tool(description="Open a closed ticket again and return it. Use it when a fixed problem is back. "
                             "Do not use it for new problems.")
    def reopen_ticket(ticket_id: evolving.TicketId) -> evolving.Ticket:
        ticket = find(ticket_id)
        if ticket.status == "open":
            return ticket
        tickets[ticket_id] = ticket.model_copy(update={"status": "open"})
        return tickets[ticket_id]

    return server
