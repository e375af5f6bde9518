"""Splits the tool, but keeps the old search behaviour: resolved incidents included unless told otherwise."""

from mcp.server import MCPServer
from mcp_types import ToolAnnotations

from course_lib.servers import incidents

EXPECT = "includeResolved with default true"


def answer(store, user):
    server = MCPServer("incidents", log_level="WARNING")
    reads = ToolAnnotations(read_only_hint=True, open_world_hint=False)

    @server.tool(annotations=reads)
    def search_incidents(query: str = "", includeResolved: bool = True) -> incidents.IncidentList:
        """List the incidents you can see."""
        return store.search(user, query, includeResolved)

    @server.tool(annotations=reads)
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        """Read one incident."""
        return store.get(user, incidentId)

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True,
                                             open_world_hint=False))
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText,
                          requestId: incidents.RequestId) -> incidents.NoteAdded:
        """Append one note."""
        return store.add_note_once(user, incidentId, note, requestId)

    return server
