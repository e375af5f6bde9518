"""An unseen answer (unseen11 wrongB, M3): a right v2 except that search_tickets keeps the draft's limit of at
most 20 (v1 allows 50). Its message told the limit under contract and replay, and then also as a broken priority
filter ("without priority returned null"), because the filter's probes asked for 50."""

from typing import Literal

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import evolving

EXPECT = "found search_tickets: argument limit: maximum lowered (<= 50 -> <= 20)"
NOT_SAID = ("optional `priority`", "null")

Priority = Literal["low", "normal", "high", "urgent"]
REOPEN = ("Reopen a closed ticket and return it. Use it when a solved problem comes "
          "back. Do not use it for a new problem; open a new ticket.")


def answer() -> MCPServer:
    server = MCPServer("helpdesk", log_level="WARNING")
    tickets = evolving.seed_tickets()

    def find(ticket_id: str) -> evolving.Ticket:
        if ticket_id not in tickets:
            raise ToolError(f"No ticket {ticket_id}. Use search_tickets to find it.")
        return tickets[ticket_id]

    def set_status(ticket_id, status):
        tickets[ticket_id] = find(ticket_id).model_copy(update={"status": status})
        return tickets[ticket_id]

    @server.tool(description=evolving.GET, annotations=evolving.READ_HINTS)
    def get_ticket(ticket_id: evolving.TicketId) -> evolving.Ticket:
        return find(ticket_id)

    @server.tool(description=evolving.CREATE)
    def create_ticket(title: evolving.Title,
                      priority: Priority = "normal") -> evolving.Ticket:
        ticket = evolving.Ticket(id=f"T-{len(tickets) + 1}", title=title,
                                 priority=priority, status="open")
        tickets[ticket.id] = ticket
        return ticket

    @server.tool(description=evolving.SEARCH, annotations=evolving.READ_HINTS)
    def search_tickets(query: evolving.Query, limit: evolving.limit_up_to(20) = 10,
                       priority: Priority | None = None) -> evolving.TicketPageV1:
        found = [t for t in reversed(tickets.values())
                 if query.casefold() in t.title.casefold() and priority in (None, t.priority)]
        return evolving.TicketPageV1(tickets=found[:limit], total=len(found))

    @server.tool(description=evolving.CLOSE, annotations=evolving.CLOSE_HINTS)
    def close_ticket(ticket_id: evolving.TicketId,
                     resolution: evolving.Resolution) -> evolving.Ticket:
        return set_status(ticket_id, "closed")

    @server.tool(description=REOPEN, annotations=evolving.CLOSE_HINTS)
    def reopen_ticket(ticket_id: evolving.TicketId) -> evolving.Ticket:
        return set_status(ticket_id, "open")

    return server
