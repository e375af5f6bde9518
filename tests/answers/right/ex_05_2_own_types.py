"""Own Annotated types (\\d in the pattern, a UUID class), description= texts, explicit hints on every tool."""

import uuid
from typing import Annotated

from mcp.server import MCPServer
from mcp_types import ToolAnnotations
from pydantic import Field

from course_lib.servers import incidents

IncidentKey = Annotated[str, Field(pattern=r"^INC-\d+$", description="Like INC-101.")]


def answer(store, user):
    server = MCPServer("incidents", log_level="WARNING")
    read = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)

    @server.tool(description="Find incidents by words in their title or service.", annotations=read)
    def search_incidents(query: Annotated[str, Field(max_length=100)] = "",
                         includeResolved: Annotated[bool, Field(description="Also resolved ones.")] = False
                         ) -> incidents.IncidentList:
        return store.search(user, query, includeResolved)

    @server.tool(description="Read one incident and its latest notes.", annotations=read)
    def get_incident(incidentId: IncidentKey) -> incidents.Incident:
        return store.get(user, incidentId)

    @server.tool(description="Add a note to an incident's timeline.",
                 annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True,
                                             open_world_hint=False))
    def add_incident_note(incidentId: IncidentKey, note: Annotated[str, Field(min_length=1, max_length=500)],
                          requestId: uuid.UUID) -> incidents.NoteAdded:
        return store.add_note_once(user, incidentId, note, requestId)

    return server
