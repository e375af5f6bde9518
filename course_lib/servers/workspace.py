"""Lesson 06's team-workspace server: twelve tools in four areas (calendar, mail, documents, tickets).

A host pays for every definition on every turn, so this server is the lesson's specimen for
count pressure: all twelve tools in one server, or focused servers of one area each that a host
can enable separately. `register` adds chosen tools in a chosen order (lesson 06 uses it to show
what an unordered source does to `tools/list`). The backend is a small in-memory table; every
`build_server()` starts from the same data, so every call is reproducible.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from typing import Annotated, Any, Literal, TypeVar

from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from pydantic import BaseModel, Field

from course_lib.errors import UnknownName
from course_lib.servers.base import new_server, tool

T = TypeVar("T")

AREAS: dict[str, tuple[str, ...]] = {
    "calendar": ("list_events", "create_event", "cancel_event"),
    "mail": ("search_messages", "read_message", "send_message"),
    "documents": ("search_documents", "read_document", "add_document_access"),
    "tickets": ("get_ticket", "search_tickets", "add_ticket_comment"),
}
"""Each area's tools, in the order the server lists them."""
TOOL_NAMES: tuple[str, ...] = tuple(name for names in AREAS.values() for name in names)

TicketStatus = Literal["open", "pending", "closed"]
Role = Literal["viewer", "editor"]

_READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
_QUERY = Annotated[str, Field(min_length=2, max_length=100, description="Words to look for, e.g. 'login error'.")]
_LIMIT = Annotated[int, Field(ge=1, le=20, description="Most results to return.")]
_EMAIL = Annotated[str, Field(pattern=r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$", max_length=200,
                              description="One email address, e.g. 'priya@example.com'.")]
_TICKET_ID = Annotated[str, Field(pattern=r"^TCK-[0-9]{1,6}$", description="Ticket id, e.g. 'TCK-401'.")]


# --- models ---------------------------------------------------------------------------------------


class Event(BaseModel):
    """One calendar event."""

    id: str
    title: str
    date: str = Field(description="ISO date, YYYY-MM-DD")
    start: str = Field(description="Local start time, HH:MM")
    minutes: int


class EventList(BaseModel):
    """The events on one day."""

    date: str
    events: list[Event]


class MessageSummary(BaseModel):
    """One message in a search result."""

    id: str
    sender: str
    subject: str


class MessageList(BaseModel):
    """Messages matching a search."""

    query: str
    messages: list[MessageSummary]


class Message(BaseModel):
    """One message in full."""

    id: str
    sender: str
    subject: str
    body: str


class SentMessage(BaseModel):
    """A message that was sent."""

    id: str
    to: str
    subject: str


class DocumentSummary(BaseModel):
    """One document in a search result."""

    id: str
    title: str


class DocumentList(BaseModel):
    """Documents matching a search."""

    query: str
    documents: list[DocumentSummary]


class Document(BaseModel):
    """One document in full."""

    id: str
    title: str
    text: str


class Share(BaseModel):
    """Who a document is shared with, and how."""

    document_id: str
    email: str
    role: Role


class TicketSummary(BaseModel):
    """One ticket in a search result."""

    id: str
    title: str
    status: TicketStatus


class TicketList(BaseModel):
    """Tickets matching a search."""

    query: str
    status: TicketStatus
    tickets: list[TicketSummary]


class Ticket(BaseModel):
    """One support ticket with its comments."""

    id: str
    title: str
    status: TicketStatus
    comments: list[str]


# --- the backend ----------------------------------------------------------------------------------


def _events() -> list[Event]:
    return [
        Event(id="EV-101", title="Sprint planning", date="2026-10-02", start="09:30", minutes=60),
        Event(id="EV-102", title="Design review", date="2026-10-02", start="14:00", minutes=45),
        Event(id="EV-103", title="One-to-one with Priya", date="2026-10-05", start="11:00", minutes=30),
    ]


_MESSAGES = (
    Message(id="MSG-201", sender="priya@example.com", subject="Login failures after the update",
            body="Since this morning's update, three customers cannot log in after a password reset."),
    Message(id="MSG-202", sender="billing@example.com", subject="VAT on October invoices",
            body="The October invoices for Norwegian customers show 20% VAT instead of 25%."),
    Message(id="MSG-203", sender="sam@example.com", subject="Release checklist review",
            body="Could you review the release checklist before Friday?"),
)
MESSAGES = _MESSAGES
"""The team inbox (lesson 06 builds a paged, concise/detailed search over it)."""
_DOCUMENTS = (
    Document(id="DOC-301", title="Release checklist", text="1. Freeze the branch. 2. Run the full test suite."),
    Document(id="DOC-302", title="On-call handbook", text="Page the secondary after 15 minutes without an answer."),
    Document(id="DOC-303", title="Q4 roadmap", text="Export speed, invoice fixes, dark mode."),
)


def _tickets() -> dict[str, Ticket]:
    rows = [
        ("TCK-401", "Login fails after a password reset", "open"),
        ("TCK-402", "Invoice shows the wrong VAT rate", "pending"),
        ("TCK-403", "Export to CSV times out", "open"),
        ("TCK-404", "Login page is slow", "closed"),
        ("TCK-405", "Add a dark mode", "closed"),
    ]
    return {tid: Ticket(id=tid, title=title, status=status, comments=[]) for tid, title, status in rows}


@dataclass
class Workspace:
    """The mutable state of one server: events, sent mail, shares and ticket comments."""

    events: list[Event] = field(default_factory=_events)
    sent: list[SentMessage] = field(default_factory=list)
    shares: list[Share] = field(default_factory=list)
    tickets: dict[str, Ticket] = field(default_factory=_tickets)
    next_event: int = 104


def _find(items: Iterable[T], item_id: str, kind: str, finder: str) -> T:
    """The item with `item_id`, or a ToolError that names the tool to find the right id with."""
    for item in items:
        if item.id == item_id:
            return item
    raise ToolError(f"No {kind} {item_id}. Call {finder} to find the right id.")


def _matches(query: str, *texts: str) -> bool:
    """Whether every word of `query` appears in the texts (case-insensitive)."""
    haystack = " ".join(texts).casefold()
    return all(word in haystack for word in query.casefold().split())


def search_tickets(state: Workspace, query: str, status: TicketStatus = "open", limit: int = 5) -> TicketList:
    """Tickets with `status` whose title contains every word of `query`, at most `limit`."""
    found = [TicketSummary(id=t.id, title=t.title, status=t.status)
             for t in state.tickets.values() if t.status == status and _matches(query, t.title)]
    return TicketList(query=query, status=status, tickets=found[:limit])


def _parse_date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ToolError(f"{text!r} is not a real date. Use YYYY-MM-DD, e.g. '2026-10-02'.") from None


def _tools(state: Workspace) -> dict[str, tuple[Callable[..., Any], dict[str, Any]]]:
    """Every tool of the workspace bound to `state`, with its registration options."""

    def list_events(
        date: Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$", description="ISO date, e.g. '2026-10-02'.")],
    ) -> EventList:
        """The events on one day of the team calendar, in start order.

        Use it to see what is scheduled on a date.
        Do not use it to find free time across several people; it reads one calendar.
        """
        _parse_date(date)
        events = sorted((e for e in state.events if e.date == date), key=lambda e: e.start)
        return EventList(date=date, events=events)

    def create_event(
        title: Annotated[str, Field(min_length=1, max_length=120, description="What the event is, e.g. 'Design review'.")],
        date: Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$", description="ISO date, e.g. '2026-10-02'.")],
        start: Annotated[str, Field(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$", description="Local time, HH:MM.")],
        minutes: Annotated[int, Field(ge=15, le=480, description="Length in minutes.")] = 30,
    ) -> Event:
        """Add one event to the team calendar and return it with its new id.

        Use it when someone asks to schedule a meeting at a known date and time.
        Do not use it to invite people by email; use send_message for that.
        """
        _parse_date(date)
        event = Event(id=f"EV-{state.next_event}", title=title, date=date, start=start, minutes=minutes)
        state.next_event += 1
        state.events.append(event)
        return event

    def cancel_event(
        event_id: Annotated[str, Field(pattern=r"^EV-[0-9]{1,6}$", description="Event id, e.g. 'EV-101'.")],
    ) -> Event:
        """Remove one event from the team calendar and return what was removed.

        Use it when someone asks to cancel a specific event whose id you know.
        Do not use it to move an event; create the new one first, then cancel the old one.
        """
        event = _find(state.events, event_id, "event", "list_events for the date")
        state.events.remove(event)
        return event

    def search_messages(query: _QUERY, limit: _LIMIT = 5) -> MessageList:
        """Messages in the team inbox whose subject or body contains every word of the query.

        Use it to find mail about a topic.
        Do not use it to read a whole message; call read_message with the id it returns.
        """
        found = [MessageSummary(id=m.id, sender=m.sender, subject=m.subject)
                 for m in _MESSAGES if _matches(query, m.subject, m.body)]
        return MessageList(query=query, messages=found[:limit])

    def read_message(
        message_id: Annotated[str, Field(pattern=r"^MSG-[0-9]{1,6}$", description="Message id, e.g. 'MSG-201'.")],
    ) -> Message:
        """One message from the team inbox in full, with its body.

        Use it after search_messages, with an id it returned.
        Do not use it to search; it needs an exact id.
        """
        return _find(_MESSAGES, message_id, "message", "search_messages")

    def send_message(
        to: _EMAIL,
        subject: Annotated[str, Field(min_length=1, max_length=150, description="Subject line.")],
        body: Annotated[str, Field(min_length=1, max_length=5000, description="Plain-text message body.")],
    ) -> SentMessage:
        """Send one plain-text email from the team address to one recipient.

        Use it only when the person has asked for this exact message to be sent.
        Do not use it to draft or preview a message; sending cannot be undone.
        """
        sent = SentMessage(id=f"OUT-{len(state.sent) + 1}", to=to, subject=subject)
        state.sent.append(sent)
        return sent

    def search_documents(query: _QUERY, limit: _LIMIT = 5) -> DocumentList:
        """Documents in the team drive whose title or text contains every word of the query.

        Use it to find a document about a topic.
        Do not use it to read a document; call read_document with the id it returns.
        """
        found = [DocumentSummary(id=d.id, title=d.title) for d in _DOCUMENTS if _matches(query, d.title, d.text)]
        return DocumentList(query=query, documents=found[:limit])

    def read_document(
        document_id: Annotated[str, Field(pattern=r"^DOC-[0-9]{1,6}$", description="Document id, e.g. 'DOC-301'.")],
    ) -> Document:
        """One document from the team drive in full.

        Use it after search_documents, with an id it returned.
        Do not use it to search; it needs an exact id.
        """
        return _find(_DOCUMENTS, document_id, "document", "search_documents")

    def add_document_access(
        document_id: Annotated[str, Field(pattern=r"^DOC-[0-9]{1,6}$", description="Document id, e.g. 'DOC-301'.")],
        email: _EMAIL,
        role: Role = "viewer",
    ) -> Share:
        """Give one person access to one document in the team drive.

        Use it when someone asks to share a specific document with a named person.
        Do not use it to send the document's text; the person gets a link to open it.
        """
        _find(_DOCUMENTS, document_id, "document", "search_documents")
        share = Share(document_id=document_id, email=email, role=role)
        if share not in state.shares:
            state.shares.append(share)
        return share

    def get_ticket(ticket_id: _TICKET_ID) -> Ticket:
        """One support ticket with its status and comments.

        Use it when you know the ticket id.
        Do not use it to search by topic; use search_tickets.
        """
        return _find(state.tickets.values(), ticket_id, "ticket", "search_tickets")

    def search_tickets_tool(
        query: _QUERY,
        status: TicketStatus = "open",
        limit: _LIMIT = 5,
    ) -> TicketList:
        """Support tickets with a given status whose title contains every word of the query.

        Use it to find tickets about a problem a customer reported.
        Do not use it to read one ticket whose id you know; call get_ticket.
        """
        return search_tickets(state, query, status, limit)

    def add_ticket_comment(
        ticket_id: _TICKET_ID,
        comment: Annotated[str, Field(min_length=1, max_length=2000, description="The comment, in plain text.")],
    ) -> Ticket:
        """Append one comment to a support ticket and return the ticket.

        Use it to record an update the person asked you to add.
        Do not use it to change a ticket's status; comments never close a ticket.
        """
        ticket = _find(state.tickets.values(), ticket_id, "ticket", "search_tickets")
        ticket.comments.append(comment)
        return ticket

    change = dict(read_only_hint=False, open_world_hint=False)
    return {
        "list_events": (list_events, {"annotations": _READ}),
        "create_event": (create_event, {"annotations": ToolAnnotations(destructive_hint=False, idempotent_hint=False, **change)}),
        "cancel_event": (cancel_event, {"annotations": ToolAnnotations(destructive_hint=True, idempotent_hint=True, **change)}),
        "search_messages": (search_messages, {"annotations": _READ}),
        "read_message": (read_message, {"annotations": _READ}),
        "send_message": (send_message, {"annotations": ToolAnnotations(
            read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=True)}),
        "search_documents": (search_documents, {"annotations": _READ}),
        "read_document": (read_document, {"annotations": _READ}),
        "add_document_access": (add_document_access, {"annotations": ToolAnnotations(destructive_hint=False, idempotent_hint=True, **change)}),
        "get_ticket": (get_ticket, {"annotations": _READ}),
        "search_tickets": (search_tickets_tool, {"name": "search_tickets", "annotations": _READ}),
        "add_ticket_comment": (add_ticket_comment, {"annotations": ToolAnnotations(destructive_hint=False, idempotent_hint=False, **change)}),
    }


# --- servers --------------------------------------------------------------------------------------


class UnknownTool(UnknownName):
    """A tool or area name the workspace does not have."""


def register(server, names: Iterable[str], state: Workspace | None = None) -> None:
    """Register the named workspace tools on `server`, in exactly the order `names` yields them."""
    tools = _tools(state or Workspace())
    for name in names:
        if name not in tools:
            raise UnknownTool(f"unknown workspace tool {name!r}; known: {', '.join(TOOL_NAMES)}")
        fn, options = tools[name]
        tool(server, **options)(fn)


def build_server(areas: Iterable[str] | None = None, **server_options: Any):
    """A fresh workspace server with every area, or a focused one with only `areas`.

    Tools are always listed in the canonical `TOOL_NAMES` order, whatever order (or set) `areas`
    comes in, so the same areas give the same `tools/list` in every process. `server_options`
    go to `MCPServer` (e.g. `cache_hints=`).
    """
    wanted = set(AREAS) if areas is None else set(areas)
    unknown = sorted(wanted - set(AREAS))
    if unknown:
        raise UnknownTool(f"unknown area(s) {', '.join(unknown)}; known: {', '.join(AREAS)}")
    chosen = [area for area in AREAS if area in wanted]
    name = "workspace" if len(chosen) == len(AREAS) else "workspace-" + "-".join(chosen)
    server = new_server(name, **server_options)
    register(server, [tool for area in chosen for tool in AREAS[area]])
    return server


def tool_area(name: str) -> str:
    """The area a workspace tool belongs to."""
    return next(area for area, names in AREAS.items() if name in names)

