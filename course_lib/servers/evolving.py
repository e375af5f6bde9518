"""Lesson 09's evolving helpdesk: a v1, a v2 that breaks v1 clients, and a v2 that does not.

`build_v2_breaking` renames `get_ticket`, adds a required `team` to `create_ticket`, drops the
`urgent` priority, lowers the `search_tickets` limit and removes `total` from its result.
`build_v2_safe` adds an optional `status` choice, a new `add_comment` tool and a `critical`
priority. Each build has its own ticket store, seeded with the same two tickets.
"""

from __future__ import annotations

from typing import Annotated, Literal

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from pydantic import BaseModel, Field

from course_lib import __version__

TicketId = Annotated[str, Field(pattern=r"^T-[0-9]+$", description="A ticket id such as 'T-1'.")]
Title = Annotated[str, Field(min_length=1, max_length=120, description="One line that says what is wrong.")]
Query = Annotated[str, Field(min_length=1, description="Words to look for in ticket titles.")]
Team = Literal["it", "facilities", "finance"]
Resolution = Annotated[str, Field(min_length=1, max_length=500,
                                  description="What fixed it, for the person who reported it.")]
Status = Literal["open", "closed", "any"]


def limit_up_to(most: int):
    """The `limit` argument type, with `most` as its upper bound."""
    return Annotated[int, Field(ge=1, le=most, description=f"How many tickets to return, 1 to {most}.")]


GET = "The ticket with this id: title, priority and status. Use it when you know the id. Do not use it to search."
CREATE = ("Open a new ticket and return it. Use it when a person reports a new problem. "
          "Do not use it to add information to an existing ticket.")
SEARCH = ("Tickets whose title contains the query, newest first. Use it to find a ticket by words. "
          "Do not use it when you already know the id.")
CLOSE = ("Close a ticket with a resolution note. Use it when the problem is solved. "
         "Do not use it to delete a ticket; closing twice changes nothing.")
COMMENT = ("Add a comment to an open ticket and return the comment count. Use it to add information. "
           "Do not use it to close a ticket.")

V1_CALLS: list[tuple[str, dict]] = [
    ("get_ticket", {"ticket_id": "T-1"}),
    ("create_ticket", {"title": "Screen flickers", "priority": "urgent"}),
    ("search_tickets", {"query": "printer", "limit": 30}),
    ("search_tickets", {"query": "printer"}),
    ("close_ticket", {"ticket_id": "T-2", "resolution": "Router replaced."}),
]
"""Calls a v1 client made, recorded for `contract.replay` against each v2."""


class Ticket(BaseModel):
    """A ticket as every version returns it."""

    id: str
    title: str
    priority: str
    status: Literal["open", "closed"]


class TicketPageV1(BaseModel):
    """v1's search result: matches and how many there are in all."""

    tickets: list[Ticket]
    total: int


class TicketPageV2(BaseModel):
    """The breaking v2's search result: `total` gave way to `has_more`."""

    tickets: list[Ticket]
    has_more: bool


class CommentCount(BaseModel):
    """How many comments a ticket has after one was added."""

    ticket_id: str
    comments: int


def _store() -> dict[str, Ticket]:
    """A fresh ticket store with the two tickets every version starts with."""
    return {"T-1": Ticket(id="T-1", title="Printer on floor 2 jams", priority="normal", status="open"),
            "T-2": Ticket(id="T-2", title="VPN drops every hour", priority="high", status="open")}


def _find(tickets: dict[str, Ticket], ticket_id: str) -> Ticket:
    """The ticket with this id, or a `ToolError` that says what to do."""
    if ticket_id not in tickets:
        raise ToolError(f"No ticket {ticket_id}. Use search_tickets to find the id.")
    return tickets[ticket_id]


def _open(tickets: dict[str, Ticket], title: str, priority: str) -> Ticket:
    """A new open ticket, stored under the next id."""
    ticket = Ticket(id=f"T-{len(tickets) + 1}", title=title, priority=priority, status="open")
    tickets[ticket.id] = ticket
    return ticket


def _search(tickets: dict[str, Ticket], query: str, status: str | None = None) -> list[Ticket]:
    """Tickets whose title contains `query` (any case), newest first, optionally with one status."""
    found = [t for t in tickets.values() if query.casefold() in t.title.casefold() and status in (None, t.status)]
    return sorted(found, key=lambda t: int(t.id[2:]), reverse=True)


def _close(tickets: dict[str, Ticket], ticket_id: str) -> Ticket:
    """The ticket, closed (closing a closed ticket changes nothing)."""
    ticket = _find(tickets, ticket_id).model_copy(update={"status": "closed"})
    tickets[ticket_id] = ticket
    return ticket


def _server() -> MCPServer:
    """An empty helpdesk server that reports the course's version."""
    return MCPServer("helpdesk", log_level="WARNING", version=__version__)


_READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
_CLOSE = ToolAnnotations(destructive_hint=False, idempotent_hint=True, open_world_hint=False)
_CREATE = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False)


def build_v1() -> MCPServer:
    """The helpdesk as v1 clients know it: get, create, search and close tickets."""
    server, tickets = _server(), _store()

    @server.tool(description=GET, annotations=_READ)
    def get_ticket(ticket_id: TicketId) -> Ticket:
        return _find(tickets, ticket_id)

    @server.tool(description=CREATE, annotations=_CREATE)
    def create_ticket(title: Title, priority: Literal["low", "normal", "high", "urgent"] = "normal") -> Ticket:
        return _open(tickets, title, priority)

    @server.tool(description=SEARCH, annotations=_READ)
    def search_tickets(query: Query, limit: limit_up_to(50) = 10) -> TicketPageV1:
        found = _search(tickets, query)
        return TicketPageV1(tickets=found[:limit], total=len(found))

    @server.tool(description=CLOSE, annotations=_CLOSE)
    def close_ticket(ticket_id: TicketId, resolution: Resolution) -> Ticket:
        return _close(tickets, ticket_id)

    return server


def build_v2_breaking() -> MCPServer:
    """A v2 that breaks v1 clients five ways: a rename, a required argument, a narrowed enum and bound, a changed result."""
    server, tickets = _server(), _store()

    @server.tool(description=GET, annotations=_READ)
    def fetch_ticket(ticket_id: TicketId) -> Ticket:
        return _find(tickets, ticket_id)

    @server.tool(description=CREATE, annotations=_CREATE)
    def create_ticket(title: Title, team: Team, priority: Literal["low", "normal", "high"] = "normal") -> Ticket:
        return _open(tickets, title, priority)

    @server.tool(description=SEARCH, annotations=_READ)
    def search_tickets(query: Query, limit: limit_up_to(20) = 10) -> TicketPageV2:
        found = _search(tickets, query)
        return TicketPageV2(tickets=found[:limit], has_more=len(found) > limit)

    @server.tool(description=CLOSE, annotations=_CLOSE)
    def close_ticket(ticket_id: TicketId, resolution: Resolution) -> Ticket:
        return _close(tickets, ticket_id)

    return server


def build_v2_safe() -> MCPServer:
    """A v2 that every v1 client can keep calling: an optional filter, a new tool, a wider enum."""
    server, tickets = _server(), _store()
    comments: dict[str, list[str]] = {}

    @server.tool(description=GET, annotations=_READ)
    def get_ticket(ticket_id: TicketId) -> Ticket:
        return _find(tickets, ticket_id)

    @server.tool(description=CREATE, annotations=_CREATE)
    def create_ticket(title: Title,
                      priority: Literal["low", "normal", "high", "urgent", "critical"] = "normal") -> Ticket:
        return _open(tickets, title, priority)

    @server.tool(description=SEARCH, annotations=_READ)
    def search_tickets(query: Query, limit: limit_up_to(50) = 10, status: Status = "any") -> TicketPageV1:
        found = _search(tickets, query, None if status == "any" else status)
        return TicketPageV1(tickets=found[:limit], total=len(found))

    @server.tool(description=CLOSE, annotations=_CLOSE)
    def close_ticket(ticket_id: TicketId, resolution: Resolution) -> Ticket:
        return _close(tickets, ticket_id)

    @server.tool(description=COMMENT, annotations=ToolAnnotations(destructive_hint=False, open_world_hint=False))
    def add_comment(ticket_id: TicketId,
                    body: Annotated[str, Field(min_length=1, max_length=2000, description="The comment text.")]
                    ) -> CommentCount:
        if _find(tickets, ticket_id).status == "closed":
            raise ToolError(f"{ticket_id} is closed. Comments go on open tickets only.")
        comments.setdefault(ticket_id, []).append(body)
        return CommentCount(ticket_id=ticket_id, comments=len(comments[ticket_id]))

    return server
