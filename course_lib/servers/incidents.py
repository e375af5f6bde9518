"""Lesson 05's incident desk: narrow tools over an in-memory store with users, teams and tenants.

The store is the backend and the authority. Every method that touches an incident takes the
caller and checks that caller against that incident (object-level authorization); a forbidden
incident and a missing one raise the same message, so existence does not leak. Notes carry an
idempotency key, and closing an incident needs a preview token bound to the exact change.

How the server knows its caller: `build_server(user=...)` builds the server one person's session
talks to (in process and over stdio); with `tokens=...`, served over HTTP, each request's caller is
the user of its verified bearer token (`course_lib.auth`). The caller is never a tool argument (a
model could write any name there). Servers built on one `Store` share its data; `build_server()`
with no store starts from the same fresh data every time. `incident_store` has the same backend
in a SQLite file or a PostgreSQL database, which survive restarts and which several processes
(on several hosts, for PostgreSQL) may share. The data types live in `incident_model`.
"""

from __future__ import annotations

import os
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from typing import Annotated

from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from pydantic import Field

from course_lib import incident_model
from course_lib.incident_model import (ONCALL, USERS, ClosePreview, Incident, IncidentList, IncidentStore,
                                       IncidentSummary, Note, NoteAdded, Page, Record, Resolution, Service,
                                       User, already_resolved, close_change, conflict, not_found,
                                       preview_mismatch, new_preview_token, stale_preview, unusable_preview, view)
from course_lib.servers.base import new_server, tool

ID_PATTERN = r"^INC-[0-9]+$"

IncidentId = Annotated[str, Field(pattern=ID_PATTERN,
                                  description="Incident ID such as INC-101 (from search_incidents).")]
NoteText = Annotated[str, Field(min_length=1, max_length=500,
                                description="The note, 1-500 characters, as it should appear on the timeline.")]
RequestId = Annotated[uuid.UUID, Field(
    description="A new UUID for each new note. Reuse the same one only to retry the same call after a "
                "timeout; the note is then added once.")]


class Store:
    """The incident backend: records, idempotency keys, previews and pages, safe across threads."""

    def __init__(self, write_delay: float = 0.0, preview_ttl: float = incident_model.PREVIEW_TTL,
                 clock: Callable[[], float] = time.monotonic):
        self.write_delay = write_delay
        """Seconds each note write takes (a slow database); lessons raise it to provoke timeouts."""
        self._records = incident_model.seed()
        self._lock = threading.RLock()
        self._requests: dict[tuple[str, str], tuple[str, str, NoteAdded]] = {}
        self.preview_ttl, self.clock = preview_ttl, clock
        """How long a preview token lives, measured with `clock` (seconds)."""
        self._previews: dict[str, tuple[str, str, str, int, float]] = {}
        self._pages: list[tuple[str, Page]] = []

    # reading and authorization

    user = staticmethod(incident_model.user)
    can_read = staticmethod(incident_model.can_read)

    def lookup(self, incident_id: str) -> Record | None:
        """The raw record for an ID, with no authorization at all (the leaky path)."""
        return self._records.get(incident_id)

    def visible(self, user: str, incident_id: str) -> Record:
        """The record if `user` may see it; the same error whether missing or forbidden."""
        record = self.lookup(incident_id)
        if record is None or not self.can_read(user, record):
            raise not_found(incident_id)
        return record

    def get(self, user: str, incident_id: str) -> Incident:
        """One incident as `user` may see it."""
        with self._lock:
            return view(self.visible(user, incident_id))

    def search(self, user: str, query: str = "", include_resolved: bool = False, limit: int = 10) -> IncidentList:
        """Incidents `user` may see whose title or service contains every word of `query`."""
        words = query.casefold().split()
        with self._lock:
            found = [
                IncidentSummary(incidentId=r.incident_id, title=r.title, service=r.service,
                                severity=r.severity, status=r.status)
                for r in sorted(self._records.values(), key=lambda r: incident_model.id_number(r.incident_id), reverse=True)
                if self.can_read(user, r) and (include_resolved or r.status == "open")
                and all(word in f"{r.title} {r.service}".casefold() for word in words)
            ]
        return IncidentList(incidents=found[:limit])

    def notes(self, incident_id: str) -> list[Note]:
        """Every note on an incident (the backend's view, for lessons and tests)."""
        with self._lock:
            record = self.lookup(incident_id)
            return list(record.notes) if record else []

    # writing

    def append_note(self, user: str, incident_id: str, text: str) -> NoteAdded:
        """Append a note: one backend write, NOT idempotent (each call adds a note)."""
        if self.write_delay:  # the round trip to a slow database; concurrent writes overlap here
            time.sleep(self.write_delay)
        with self._lock:
            record = self.visible(user, incident_id)
            note = Note(noteId=f"N{len(record.notes) + 1}", author=user, text=text)
            record.notes.append(note)
            record.version += 1
            return NoteAdded(incidentId=incident_id, noteId=note.noteId, author=user, text=text)

    def add_note_once(self, user: str, incident_id: str, text: str,
                      request_id: uuid.UUID | str) -> NoteAdded:
        """Append a note once per (caller, requestId): a retry gets the first result back."""
        key = (user, str(request_id))
        with self._lock:  # the check and the write are one step, or concurrent retries race
            if key in self._requests:
                first_id, first_text, result = self._requests[key]
                if (first_id, first_text) != (incident_id, text):
                    raise conflict(request_id)  # the same key for another note
                return result
            result = self.append_note(user, incident_id, text)
            self._requests[key] = (incident_id, text, result)
            return result

    def preview_close(self, user: str, incident_id: str, resolution: str) -> ClosePreview:
        """What closing would change, and a token bound to this caller, incident, resolution and version."""
        with self._lock:
            record = self.visible(user, incident_id)
            if record.status == "resolved":
                raise already_resolved(incident_id)
            self._purge_previews()
            token = new_preview_token()
            self._previews[token] = (user, incident_id, resolution, record.version, self.clock())
            return ClosePreview(incidentId=incident_id, resolution=resolution,
                                change=close_change(record, resolution), previewToken=token)

    def close(self, user: str, incident_id: str, resolution: str, preview_token: str) -> Incident:
        """Apply a previewed close, only if the call matches the preview exactly and nothing changed since."""
        with self._lock:
            self._purge_previews()
            bound = self._previews.get(preview_token)
            if bound is None or bound[0] != user:
                raise unusable_preview()
            _, previewed_id, previewed_resolution, version, _ = bound
            if (previewed_id, previewed_resolution) != (incident_id, resolution):
                raise preview_mismatch((previewed_id, previewed_resolution), (incident_id, resolution))
            record = self.visible(user, incident_id)
            if record.version != version:
                raise stale_preview(incident_id)
            del self._previews[preview_token]
            record.status, record.version = "resolved", record.version + 1
            record.notes.append(Note(noteId=f"N{len(record.notes) + 1}", author=user,
                                     text=f"Closed as {resolution}."))
            return view(record)

    def _purge_previews(self) -> None:
        """Forget every preview older than `preview_ttl` (call with the lock held)."""
        oldest = self.clock() - self.preview_ttl
        for token in [token for token, bound in self._previews.items() if bound[4] <= oldest]:
            del self._previews[token]

    def overwrite(self, user: str, incident_id: str, title: str | None = None, status: str | None = None) -> Incident:
        """Change an incident's title or status at once, with no preview (the overloaded tool's way)."""
        with self._lock:
            record = self.visible(user, incident_id)
            record.title = title if title is not None else record.title
            record.status = status if status is not None else record.status
            record.version += 1
            return view(record)

    def page(self, user: str, service: str, message: str) -> Page:
        """Page the on-call person of a service in the caller's organization."""
        tenant = self.user(user).tenant
        with self._lock:
            number = sum(1 for owner, _ in self._pages if owner == tenant) + 1
            page = Page(pageId=f"PG-{number}", service=service, oncall=ONCALL[tenant][service], message=message)
            self._pages.append((tenant, page))
            return page

    def pages(self, tenant: str) -> list[Page]:
        """Pages sent in one organization (the pager's outbox)."""
        with self._lock:
            return [page for owner, page in self._pages if owner == tenant]


# --- the server ---------------------------------------------------------------------------------

READS = ToolAnnotations(read_only_hint=True, open_world_hint=False)


def build_server(user: str = "ana", store: Store | IncidentStore | str | os.PathLike | None = None,
                 tokens: str | os.PathLike | Mapping[str, str] | None = None):
    """A fresh incident-desk server for one signed-in user; pass a `store` to share data between users.

    `store`: an in-memory `Store` (the default, fresh each time), a store from `incident_store`,
    or where one lives: the path of a SQLite file, or a `postgresql://` URL. `tokens`: a token file
    path or a token → user map; then over HTTP each request's caller is the user of its verified
    bearer token (the SDK answers 401 without one), and `user` is not used.
    """
    from course_lib import auth

    if isinstance(store, (str, os.PathLike)):
        from course_lib import incident_store

        store = incident_store.open_store(store)
    store = store if store is not None else Store()
    store.user(user)  # an unknown user is a setup mistake, not a tool error
    token_map = auth.load_tokens(tokens) if tokens is not None else None
    for name in (token_map or {}).values():
        store.user(name)
    server = new_server("incidents", **(auth.server_options(token_map) if token_map else {}))

    def caller() -> str:
        """The signed-in user: the verified token's over HTTP with tokens, else the user built in."""
        if token_map is None:
            return user
        name = auth.token_user()
        if name is None:
            raise ToolError("This server needs a bearer token: connect over HTTP with an "
                            "Authorization: Bearer <token> header.")
        return name

    @tool(server, title="Search incidents", annotations=READS)
    def search_incidents(
        query: Annotated[str, Field(max_length=100, description=(
            "Words that must all appear in the title or service, e.g. 'checkout latency'. Empty lists all."))] = "",
        includeResolved: Annotated[bool, Field(description="Also list resolved incidents.")] = False,
        limit: Annotated[int, Field(ge=1, le=20, description="At most this many incidents, 1-20.")] = 10,
    ) -> IncidentList:
        """List the incidents you can see whose title or service matches the query, newest first.

        Use it to find an incident ID. Resolved incidents are left out unless includeResolved is true.
        Do not use it to read notes; call get_incident with the ID for that.
        """
        return store.search(caller(), query, includeResolved, limit)

    @tool(server, title="Read an incident", annotations=READS)
    def get_incident(incidentId: IncidentId) -> Incident:
        """Read one incident by its ID: title, service, severity, status and its five most recent notes.

        Use it when you know the incident ID, for example from search_incidents.
        This tool does not change anything; do not use it to search by words.
        """
        return store.get(caller(), incidentId)

    @tool(server, title="Add a note to an incident", annotations=ToolAnnotations(
        read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False))
    def add_incident_note(incidentId: IncidentId, note: NoteText, requestId: RequestId) -> NoteAdded:
        """Append one note to an incident's timeline; nothing else about the incident changes.

        Use it to record findings, actions taken or decisions. Pass a new UUID as requestId for each
        new note, and the same one when retrying the same call, so a retry never adds the note twice.
        Do not use it to close an incident or to page anyone.
        """
        return store.add_note_once(caller(), incidentId, note, requestId)

    @tool(server, title="Preview closing an incident", annotations=READS)
    def preview_close_incident(incidentId: IncidentId, resolution: Resolution) -> ClosePreview:
        """Show what closing an incident would change, with a previewToken for exactly that change.

        Use it before close_incident, and show the preview to the person. It changes nothing.
        Do not use it to read an incident's notes; call get_incident for that.
        """
        return store.preview_close(caller(), incidentId, resolution)

    @tool(server, title="Close an incident", annotations=ToolAnnotations(
        read_only_hint=False, destructive_hint=True, idempotent_hint=False, open_world_hint=False))
    def close_incident(
        incidentId: IncidentId,
        resolution: Resolution,
        previewToken: Annotated[str, Field(min_length=1, max_length=40,
                                           description="The previewToken that preview_close_incident returned.")],
    ) -> Incident:
        """Close an incident (status resolved), applying exactly a change shown by preview_close_incident.

        Use it only after the person has seen that preview; pass the same incidentId and resolution and
        the preview's previewToken. Do not use it to add notes or to close several incidents at once.
        """
        return store.close(caller(), incidentId, resolution, previewToken)

    @tool(server, title="Page the on-call engineer", annotations=ToolAnnotations(
        read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=True))
    def send_oncall_page(
        service: Service,
        message: Annotated[str, Field(min_length=1, max_length=200, description="What is wrong, 1-200 characters.")],
    ) -> Page:
        """Page the on-call engineer of a service; every call sends a new alert to a person's phone.

        Use it only when someone asks to page or escalate.
        Do not use it for updates that can wait; add an incident note instead.
        """
        return store.page(caller(), service, message)

    return server
