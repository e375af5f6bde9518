"""add_incident_note calls store.append_note: a retry with the same requestId adds the note again."""

from typing import Annotated

from pydantic import Field

from mcp.server import MCPServer
from mcp_types import ToolAnnotations

from course_lib.servers import incidents

NOTE = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)

EXPECT = "retry"


def answer(store, user):
    server = MCPServer("incidents", log_level="WARNING")

    @server.tool(annotations=READ)
    def search_incidents(query: str = "", includeResolved: bool = False) -> incidents.IncidentList:
        """List the incidents you can see."""
        return store.search(user, query, includeResolved)

    @server.tool(annotations=READ)
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        """Read one incident."""
        return store.get(user, incidentId)

    @server.tool(annotations=NOTE)
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText, requestId: incidents.RequestId) -> incidents.NoteAdded:
        """Append one note."""
        return store.append_note(user, incidentId, note)

    return server
