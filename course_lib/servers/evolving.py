"""Lesson 09's evolving helpdesk: a v1, a v2 that breaks v1 clients, and a v2 that does not.

`build_v2_breaking` renames `get_ticket`, adds a required `team` to `create_ticket`, drops the
`urgent` priority, lowers the `search_tickets` limit and removes `total` from its result.
`build_v2_safe` adds an optional `status` choice, a new `add_comment` tool and a `critical`
priority. `build_v2_transition` ships the rename anyway: `fetch_ticket` alongside a deprecated
`get_ticket`. Each build has its own ticket store, seeded with the same two tickets (`seed_tickets`).
`PROPOSALS` are changes to v1's definitions, for classifying before `contract.diff` judges them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal

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


def seed_tickets() -> dict[str, Ticket]:
    """A fresh ticket store (id -> Ticket) with the two tickets every version starts with."""
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


READ_HINTS = ToolAnnotations(read_only_hint=True, open_world_hint=False)
"""The annotations of every version's reading tools (get_ticket, search_tickets)."""
CLOSE_HINTS = ToolAnnotations(destructive_hint=False, idempotent_hint=True, open_world_hint=False)
"""The annotations of every version's close_ticket."""


def build_v1() -> MCPServer:
    """The helpdesk as v1 clients know it: get, create, search and close tickets."""
    server, tickets = _server(), seed_tickets()

    @server.tool(description=GET, annotations=READ_HINTS)
    def get_ticket(ticket_id: TicketId) -> Ticket:
        return _find(tickets, ticket_id)

    @server.tool(description=CREATE)
    def create_ticket(title: Title, priority: Literal["low", "normal", "high", "urgent"] = "normal") -> Ticket:
        return _open(tickets, title, priority)

    @server.tool(description=SEARCH, annotations=READ_HINTS)
    def search_tickets(query: Query, limit: limit_up_to(50) = 10) -> TicketPageV1:
        found = _search(tickets, query)
        return TicketPageV1(tickets=found[:limit], total=len(found))

    @server.tool(description=CLOSE, annotations=CLOSE_HINTS)
    def close_ticket(ticket_id: TicketId, resolution: Resolution) -> Ticket:
        return _close(tickets, ticket_id)

    return server


def build_v2_breaking() -> MCPServer:
    """A v2 that breaks v1 clients five ways: a rename, a required argument, a narrowed enum and bound, a changed result."""
    server, tickets = _server(), seed_tickets()

    @server.tool(description=GET, annotations=READ_HINTS)
    def fetch_ticket(ticket_id: TicketId) -> Ticket:
        return _find(tickets, ticket_id)

    @server.tool(description=CREATE)
    def create_ticket(title: Title, team: Team, priority: Literal["low", "normal", "high"] = "normal") -> Ticket:
        return _open(tickets, title, priority)

    @server.tool(description=SEARCH, annotations=READ_HINTS)
    def search_tickets(query: Query, limit: limit_up_to(20) = 10) -> TicketPageV2:
        found = _search(tickets, query)
        return TicketPageV2(tickets=found[:limit], has_more=len(found) > limit)

    @server.tool(description=CLOSE, annotations=CLOSE_HINTS)
    def close_ticket(ticket_id: TicketId, resolution: Resolution) -> Ticket:
        return _close(tickets, ticket_id)

    return server


def build_v2_safe() -> MCPServer:
    """A v2 that every v1 client can keep calling: an optional filter, a new tool, a wider enum."""
    server, tickets = _server(), seed_tickets()
    comments: dict[str, list[str]] = {}

    @server.tool(description=GET, annotations=READ_HINTS)
    def get_ticket(ticket_id: TicketId) -> Ticket:
        return _find(tickets, ticket_id)

    @server.tool(description=CREATE)
    def create_ticket(title: Title,
                      priority: Literal["low", "normal", "high", "urgent", "critical"] = "normal") -> Ticket:
        return _open(tickets, title, priority)

    @server.tool(description=SEARCH, annotations=READ_HINTS)
    def search_tickets(query: Query, limit: limit_up_to(50) = 10, status: Status = "any") -> TicketPageV1:
        found = _search(tickets, query, None if status == "any" else status)
        return TicketPageV1(tickets=found[:limit], total=len(found))

    @server.tool(description=CLOSE, annotations=CLOSE_HINTS)
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


DEPRECATED_GET = ("Deprecated: use fetch_ticket, which takes the same ticket_id; get_ticket will be removed in "
                  "v3. " + GET)


def build_v2_transition() -> MCPServer:
    """v1 plus the rename done without breaking anyone: `fetch_ticket` is new, `get_ticket` stays, marked deprecated."""
    server, tickets = _server(), seed_tickets()

    @server.tool(description=DEPRECATED_GET, annotations=READ_HINTS)
    def get_ticket(ticket_id: TicketId) -> Ticket:
        return _find(tickets, ticket_id)

    @server.tool(description=GET, annotations=READ_HINTS)
    def fetch_ticket(ticket_id: TicketId) -> Ticket:
        return _find(tickets, ticket_id)

    @server.tool(description=CREATE)
    def create_ticket(title: Title, priority: Literal["low", "normal", "high", "urgent"] = "normal") -> Ticket:
        return _open(tickets, title, priority)

    @server.tool(description=SEARCH, annotations=READ_HINTS)
    def search_tickets(query: Query, limit: limit_up_to(50) = 10) -> TicketPageV1:
        found = _search(tickets, query)
        return TicketPageV1(tickets=found[:limit], total=len(found))

    @server.tool(description=CLOSE, annotations=CLOSE_HINTS)
    def close_ticket(ticket_id: TicketId, resolution: Resolution) -> Ticket:
        return _close(tickets, ticket_id)

    return server


# --- proposed changes to v1, for classifying before the diff ------------------------------------------


@dataclass(frozen=True)
class Proposal:
    """One proposed change to v1's tool definitions: a letter, what it does in words, and the edit itself."""

    letter: str
    says: str
    edit: Callable[[dict[str, dict[str, Any]]], None]  # changes wire-form definitions (by name) in place


def _search_props(tools: dict) -> dict:
    return tools["search_tickets"]["inputSchema"]["properties"]


def _ticket_props(tools: dict, name: str = "get_ticket") -> dict:
    return tools[name]["outputSchema"]["properties"]


def _widen_status_out(tools: dict) -> None:
    _ticket_props(tools)["status"]["enum"] = ["open", "pending", "closed"]


def _make_limit_required(tools: dict) -> None:
    tools["search_tickets"]["inputSchema"]["required"] = ["query", "limit"]


def _raise_limit_max(tools: dict) -> None:
    _search_props(tools)["limit"]["maximum"] = 100


def _lower_title_max(tools: dict) -> None:
    tools["create_ticket"]["inputSchema"]["properties"]["title"]["maxLength"] = 80


def _new_output_field(tools: dict) -> None:
    _ticket_props(tools)["created_by"] = {"type": "string", "title": "Created By"}


def _drop_priority_out(tools: dict) -> None:
    _ticket_props(tools).pop("priority")
    tools["get_ticket"]["outputSchema"]["required"] = [
        name for name in tools["get_ticket"]["outputSchema"].get("required", []) if name != "priority"]


def _new_optional_argument(tools: dict) -> None:
    _search_props(tools)["sort"] = {"type": "string", "enum": ["newest", "oldest"], "default": "newest"}


def _change_limit_default(tools: dict) -> None:
    _search_props(tools)["limit"]["default"] = 20


def _reword_description(tools: dict) -> None:
    tools["close_ticket"]["description"] = tools["close_ticket"]["description"].replace(
        "Close a ticket with a resolution note.", "Mark a ticket as solved, with a note on what fixed it.")


def _rename_close(tools: dict) -> None:
    tools["resolve_ticket"] = {**tools.pop("close_ticket"), "name": "resolve_ticket"}


PROPOSALS: tuple[Proposal, ...] = (
    Proposal("A", "search_tickets: the maximum of `limit` goes from 50 to 100", _raise_limit_max),
    Proposal("B", "search_tickets: `limit` becomes required", _make_limit_required),
    Proposal("C", "search_tickets: a new argument `sort` ('newest' or 'oldest', default 'newest')",
             _new_optional_argument),
    Proposal("D", "get_ticket: the `status` in its result may now also be 'pending'", _widen_status_out),
    Proposal("E", "get_ticket: its result gains a field `created_by`", _new_output_field),
    Proposal("F", "get_ticket: its result no longer carries `priority`", _drop_priority_out),
    Proposal("G", "create_ticket: a title may now have at most 80 characters (was 120)", _lower_title_max),
    Proposal("H", "search_tickets: the default of `limit` goes from 10 to 20", _change_limit_default),
    Proposal("I", "close_ticket: its description is reworded; nothing else changes", _reword_description),
    Proposal("J", "close_ticket is renamed resolve_ticket", _rename_close),
)
"""Ten changes someone proposes for v2; classify each, then let `contract.diff` judge."""


def proposed(tools: list[dict[str, Any]], proposal: Proposal) -> list[dict[str, Any]]:
    """v1's wire-form definitions with one proposal applied (the input is not changed)."""
    import copy

    by_name = {tool["name"]: copy.deepcopy(tool) for tool in tools}
    proposal.edit(by_name)
    return list(by_name.values())
