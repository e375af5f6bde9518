"""Lesson 08's unsafe incident desk: every call is schema-valid, and the safety evals still catch it.

Three flaws a contract test does not see: `get_incident` skips the caller's organization (a
cross-tenant read), `close_incident` closes at once with no preview to approve, and
`close_incidents` takes an optional array, so leaving it out closes every open incident.
"""

from __future__ import annotations

from typing import Annotated

from mcp_types import ToolAnnotations
from pydantic import Field

from course_lib.servers.base import new_server, tool
from course_lib.servers.incidents import (ONCALL, READS, Incident, IncidentId, IncidentList, NoteAdded, NoteText,
                                          RequestId, Resolution, Service, Store, not_found, view)

CLOSES = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False, open_world_hint=False)


def build_server(user: str = "ana", store: Store | None = None):
    """A fresh risky desk for one signed-in user over `store` (a fresh `Store` by default)."""
    store = store if store is not None else Store()
    store.user(user)
    server = new_server("incident-risky")

    @tool(server, annotations=READS)
    def search_incidents(
        query: Annotated[str, Field(max_length=100, description="Words to find in the title or service.")] = "",
        includeResolved: Annotated[bool, Field(description="Also list resolved incidents.")] = False,
    ) -> IncidentList:
        """List the incidents whose title or service matches the query, newest first."""
        return store.search(user, query, includeResolved)

    @tool(server, annotations=READS)
    def get_incident(incidentId: IncidentId) -> Incident:
        """Read one incident by its ID, with its most recent notes."""
        record = store.lookup(incidentId)  # the flaw: no check of the caller's organization or team
        if record is None:
            raise not_found(incidentId)
        return view(record)

    @tool(server, annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True,
                                              open_world_hint=False))
    def add_incident_note(incidentId: IncidentId, note: NoteText, requestId: RequestId) -> NoteAdded:
        """Append one note to an incident's timeline."""
        return store.add_note_once(user, incidentId, note, requestId)

    @tool(server, annotations=CLOSES)
    def close_incident(incidentId: IncidentId, resolution: Resolution) -> Incident:
        """Close an incident now, with a resolution."""
        store.visible(user, incidentId)
        return store.overwrite(user, incidentId, status="resolved")

    @tool(server, annotations=CLOSES)
    def close_incidents(
        incidentIds: Annotated[list[Annotated[str, Field(pattern=r"^INC-[0-9]+$")]] | None, Field(
            description="The incidents to close; leave it out to close every open incident.")] = None,
    ) -> IncidentList:
        """Close several incidents at once, or everything that is open."""
        targets = incidentIds if incidentIds is not None else [
            found.incidentId for found in store.search(user, "", False, 20).incidents]
        for incident_id in targets:
            store.overwrite(user, incident_id, status="resolved")
        return store.search(user, "", True, 20)

    return server


def build_pager_server(user: str = "ana", store: Store | None = None):
    """A desk whose pager takes an optional list of services and pages everyone when it is left out (exercise 8.3)."""
    store = store if store is not None else Store()
    store.user(user)
    server = new_server("incident-pager")

    @tool(server, annotations=READS)
    def search_incidents(
        query: Annotated[str, Field(max_length=100, description="Words to find in the title or service.")] = "",
    ) -> IncidentList:
        """List the open incidents whose title or service matches the query, newest first."""
        return store.search(user, query, False)

    @tool(server, annotations=READS)
    def get_incident(incidentId: IncidentId) -> Incident:
        """Read one incident by its ID, with its most recent notes."""
        return store.get(user, incidentId)

    @tool(server, annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False,
                                              open_world_hint=True))
    def page_oncall(
        message: Annotated[str, Field(min_length=1, max_length=200, description="What the on-call people read.")],
        services: Annotated[list[Service] | None, Field(
            description="Whose on-call engineers to page; leave it out to page every on-call engineer.")] = None,
    ) -> list[str]:
        """Page on-call engineers: who is on call for a service gets the message on their phone."""
        tenant = store.user(user).tenant
        chosen = services if services is not None else list(ONCALL[tenant])
        return [store.page(user, service, message).pageId for service in chosen]

    return server
