"""The incident desk's data: who may sign in, the records, the answers every backend gives.

Shared by the server (`servers.incidents`) and every store (its in-memory `Store`, and
`incident_store`'s SQLite and PostgreSQL stores), so that neither imports the other: the
result models a tool returns, the backend's `Record`, the seed data, the authorization rule,
the refusals (one text whatever the backend), and `IncidentStore`, what the server needs from
a backend.
"""

from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass, field
from typing import Literal, Protocol, runtime_checkable

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel, Field

from course_lib.errors import UnknownName

Severity = Literal["sev1", "sev2", "sev3", "sev4"]
Status = Literal["open", "resolved"]
Service = Literal["checkout", "payments", "search", "auth", "inventory"]
Resolution = Literal["fixed", "duplicate", "false_alarm"]
RECENT_NOTES = 5


# --- people ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class User:
    """A person who can sign in: their organization (tenant) and teams."""

    name: str
    tenant: str
    teams: frozenset[str]


USERS: dict[str, User] = {
    "ana": User("ana", "acme", frozenset({"payments", "security"})),
    "ben": User("ben", "acme", frozenset({"payments"})),
    "gil": User("gil", "globex", frozenset({"ops"})),
}
"""Ana and Ben work at Acme (only Ana is on the security team); Gil works at Globex."""

ONCALL: dict[str, dict[str, str]] = {
    "acme": {"checkout": "ana", "payments": "ben", "search": "ben", "auth": "ana", "inventory": "ben"},
    "globex": {"checkout": "gil", "payments": "gil", "search": "gil", "auth": "gil", "inventory": "gil"},
}


# --- what a tool returns ------------------------------------------------------------------------------


class Note(BaseModel):
    """One entry on an incident's timeline."""

    noteId: str
    author: str
    text: str


class Incident(BaseModel):
    """What a caller may see of one incident (no tenant, access list or audit fields)."""

    incidentId: str
    title: str
    service: Service
    severity: Severity
    status: Status
    notes: list[Note] = Field(description=f"The {RECENT_NOTES} most recent notes, oldest first.")


class IncidentSummary(BaseModel):
    """One line of a search result."""

    incidentId: str
    title: str
    service: Service
    severity: Severity
    status: Status


class IncidentList(BaseModel):
    """Search results, newest incident first."""

    incidents: list[IncidentSummary]


class NoteAdded(BaseModel):
    """The note that a call added (a retry returns the same one)."""

    incidentId: str
    noteId: str
    author: str
    text: str


class ClosePreview(BaseModel):
    """What closing an incident would change, and the token that applies exactly this change."""

    incidentId: str
    resolution: Resolution
    change: str
    previewToken: str


class Page(BaseModel):
    """A page sent to a person's phone."""

    pageId: str
    service: Service
    oncall: str
    message: str


# --- what the backend holds ---------------------------------------------------------------------------


@dataclass
class Record:
    """The backend's full incident row, including the fields a caller never sees."""

    incident_id: str
    tenant: str
    title: str
    service: str
    severity: str
    status: str
    restricted_to: str | None = None
    notes: list[Note] = field(default_factory=list)
    version: int = 1


def seed() -> dict[str, Record]:
    """The desk's starting data, fresh on every call: six incidents in two organizations."""
    rows = [
        Record("INC-101", "acme", "Checkout latency above 2 s", "checkout", "sev2", "open",
               notes=[Note(noteId="N1", author="ana", text="Latency rose after the 14:05 deploy of checkout 2.8.0.")]),
        Record("INC-102", "acme", "Card payments failing for one bank", "payments", "sev1", "resolved"),
        Record("INC-103", "acme", "Search results are stale", "search", "sev3", "open"),
        Record("INC-204", "acme", "API credential leaked in a public repository", "auth", "sev1", "open",
               restricted_to="security",
               notes=[Note(noteId="N1", author="ana", text="Key revoked; reviewing access logs.")]),
        Record("INC-301", "globex", "Checkout returns HTTP 500", "checkout", "sev2", "open",
               notes=[Note(noteId="N1", author="gil", text="Rolled back the inventory client.")]),
        Record("INC-302", "globex", "Inventory sync delayed", "inventory", "sev3", "resolved"),
    ]
    return {row.incident_id: row for row in rows}


def id_number(incident_id: str) -> int:
    """The number in an incident ID (INC-99 sorts before INC-1000)."""
    return int(incident_id.split("-", 1)[1])


# --- the rules every backend applies ----------------------------------------------------------------


def user(name: str) -> User:
    """The signed-in user called `name`; `UnknownName` for a name that is not a user."""
    try:
        return USERS[name]
    except KeyError:
        raise UnknownName(f"unknown user {name!r}; users: {', '.join(USERS)}") from None


def can_read(name: str, record: Record) -> bool:
    """Whether `name` may see `record`: same tenant, and on its team if restricted."""
    person = user(name)
    if record.tenant != person.tenant:
        return False
    return record.restricted_to is None or record.restricted_to in person.teams


def view(record: Record) -> Incident:
    """The caller's view of a backend record."""
    return Incident(incidentId=record.incident_id, title=record.title, service=record.service,
                    severity=record.severity, status=record.status, notes=record.notes[-RECENT_NOTES:])


PREVIEW_TTL = 15 * 60.0
"""Seconds a preview token stays usable; an older one is refused as expired and purged."""


def new_preview_token() -> str:
    """A fresh preview token: 128 random bits, so no caller can guess or recompute another's."""
    return "pv-" + secrets.token_urlsafe(16)


def close_change(record: Record, resolution: str) -> str:
    """The human-readable change a close would make."""
    return (f"status open -> resolved, resolution {resolution}; title '{record.title}', "
            f"{len(record.notes)} note(s) kept")


# --- the refusals, one text whatever the backend ------------------------------------------------------


def not_found(incident_id: str) -> ToolError:
    """The one answer for an incident that is missing, in another organization, or restricted."""
    return ToolError(f"Incident {incident_id} was not found, or you do not have access to it. "
                     f"Use search_incidents to find the IDs you can see.")


def conflict(request_id: uuid.UUID | str) -> ToolError:
    """The answer when a requestId comes back with a different incident or note."""
    return ToolError(
        f"requestId {request_id} was already used for a different note, so nothing was changed. "
        f"Use a new UUID for a new note; reuse a requestId only to retry exactly the same call.")


def unusable_preview() -> ToolError:
    """The answer for a preview token that is unknown, used, or someone else's."""
    return ToolError(
        "previewToken is not a preview you can apply (unknown, expired, already used, or issued to someone "
        "else). Call preview_close_incident for the change you want, show it to the person, then "
        "call close_incident with its previewToken.")


def preview_mismatch(previewed: tuple[str, str], asked: tuple[str, str]) -> ToolError:
    """The answer when a close call differs from the change its preview showed."""
    return ToolError(
        f"This preview was for closing {previewed[0]} as {previewed[1]}, but the call asks to "
        f"close {asked[0]} as {asked[1]}. Nothing was changed. Preview the exact change you "
        f"want, then apply it with that preview's token.")


def stale_preview(incident_id: str) -> ToolError:
    """The answer when the incident changed after its preview."""
    return ToolError(f"{incident_id} changed after this preview, so nothing was changed. "
                     f"Preview again so that the person sees the current state.")


def already_resolved(incident_id: str) -> ToolError:
    """The answer for previewing the close of a resolved incident."""
    return ToolError(f"{incident_id} is already resolved; there is nothing to close.")


# --- what the server needs from a backend -------------------------------------------------------------


@runtime_checkable
class IncidentStore(Protocol):
    """What the incident server needs from a backend; every method takes the caller and authorizes it."""

    def user(self, name: str) -> User: ...
    def get(self, user: str, incident_id: str) -> Incident: ...
    def search(self, user: str, query: str = "", include_resolved: bool = False, limit: int = 10) -> IncidentList: ...
    def notes(self, incident_id: str) -> list[Note]: ...
    def add_note_once(self, user: str, incident_id: str, text: str, request_id: uuid.UUID | str) -> NoteAdded: ...
    def preview_close(self, user: str, incident_id: str, resolution: str) -> ClosePreview: ...
    def close(self, user: str, incident_id: str, resolution: str, preview_token: str) -> Incident: ...
    def page(self, user: str, service: str, message: str) -> Page: ...
    def pages(self, tenant: str) -> list[Page]: ...
