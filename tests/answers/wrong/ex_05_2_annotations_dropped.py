"""add_incident_note has no annotations: the defaults say destructive, not idempotent, open world."""

from typing import Annotated

from pydantic import Field

from mcp.server import MCPServer
from mcp_types import ToolAnnotations

from course_lib.servers import incidents

NOTE = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)

EXPECT = "destructiveHint false"


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

    @server.tool(annotations=None)
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText, requestId: incidents.RequestId) -> incidents.NoteAdded:
        """Append one note."""
        return store.add_note_once(user, incidentId, note, requestId)

    return server
