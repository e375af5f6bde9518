"""Right filter and reopen, but reopen_ticket takes an optional reason as well as the ticket id."""

from enum import Enum

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import evolving

EXPECT = "reopen_ticket(reason, ticket_id)"


class Priority(str, Enum):
    low = "low"
    normal = "normal"
    high = "high"
    urgent = "urgent"


def answer() -> MCPServer:
    server = MCPServer("helpdesk", log_level="WARNING")
    tickets = evolving.seed_tickets()

    def find(ticket_id: str) -> evolving.Ticket:
        try:
            return tickets[ticket_id]
        except KeyError:
            raise ToolError(f"There is no ticket {ticket_id}; search_tickets finds ids.") from None

    @server.tool(description=evolving.GET, annotations=evolving.READ_HINTS)
    def get_ticket(ticket_id: evolving.TicketId) -> evolving.Ticket:
        return find(ticket_id)

    @server.tool(description=evolving.CREATE)
    def create_ticket(title: evolving.Title,
                      priority: Priority = Priority.normal) -> evolving.Ticket:
        number = len(tickets) + 1
        tickets[f"T-{number}"] = evolving.Ticket(id=f"T-{number}", title=title, priority=Priority(priority).value,
                                                 status="open")
        return tickets[f"T-{number}"]

    @server.tool(description=evolving.SEARCH, annotations=evolving.READ_HINTS)
    def search_tickets(query: evolving.Query, limit: evolving.limit_up_to(50) = 10,
                       priority: Priority | None = None) -> evolving.TicketPageV1:
        wanted = None if priority is None else Priority(priority).value
        found = sorted((t for t in tickets.values() if query.lower() in t.title.lower()
                        and (wanted is None or t.priority == wanted)), key=lambda t: int(t.id[2:]), reverse=True)
        return evolving.TicketPageV1(tickets=found[:limit], total=len(found))

    @server.tool(description=evolving.CLOSE, annotations=evolving.CLOSE_HINTS)
    def close_ticket(ticket_id: evolving.TicketId, resolution: evolving.Resolution) -> evolving.Ticket:
        tickets[ticket_id] = find(ticket_id).model_copy(update={"status": "closed"})
        return tickets[ticket_id]

    @server.tool(description="Reopen a solved ticket whose problem came back, and return it. Do not use it for "
                             "a new problem.", annotations=evolving.CLOSE_HINTS)
    def reopen_ticket(ticket_id: evolving.TicketId, reason: str | None = None) -> evolving.Ticket:
        tickets[ticket_id] = find(ticket_id).model_copy(update={"status": "open"})
        return tickets[ticket_id]

    return server
