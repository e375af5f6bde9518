"""Everything right, and get_incident takes a verbose flag nobody asked for: more than the operation needs."""

from mcp.server import MCPServer
from mcp_types import ToolAnnotations

from course_lib.servers import incidents

EXPECT = "get_incident(incidentId, verbose)"

NOTE_HINTS = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
READS = ToolAnnotations(read_only_hint=True, open_world_hint=False)


def answer(store, user):
    server = MCPServer("incidents", log_level="WARNING")

    @server.tool(annotations=READS)
    def search_incidents(query: str = "", includeResolved: bool = False) -> incidents.IncidentList:
        """List the incidents you can see whose title or service matches the query, newest first."""
        return store.search(user, query, includeResolved)

    @server.tool(annotations=READS)
    def get_incident(incidentId: incidents.IncidentId, verbose: bool = False) -> incidents.Incident:
        """Read one incident by its ID, with its most recent notes."""
        return store.get(user, incidentId)

    @server.tool(annotations=NOTE_HINTS)
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText,
                          requestId: incidents.RequestId) -> incidents.NoteAdded:
        """Append one note to an incident's timeline. Reuse a requestId only to retry the same call."""
        return store.add_note_once(user, incidentId, note, requestId)

    return server
