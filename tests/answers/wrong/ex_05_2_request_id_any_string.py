"""Types requestId as a plain str: 'retry-1' is accepted as an idempotency key."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

from course_lib.servers import incidents

NOTE_HINTS = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False)

EXPECT = "requestId 'retry-1' was accepted"


def answer(store, user):
    server = MCPServer("incidents", log_level="WARNING")
    reads = ToolAnnotations(read_only_hint=True, open_world_hint=False)

    @server.tool(annotations=reads)
    def search_incidents(query: str = "", includeResolved: bool = False) -> incidents.IncidentList:
        """List the incidents you can see whose title or service matches the query, newest first."""
        return store.search(user, query, includeResolved)

    @server.tool(annotations=reads)
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        """Read one incident by its ID, with its most recent notes."""
        return store.get(user, incidentId)

    @server.tool(annotations=NOTE_HINTS)
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText,
                          requestId: str) -> incidents.NoteAdded:
        """Append one note to an incident's timeline. Reuse a requestId only to retry the same call."""
        return store.add_note_once(user, incidentId, note, requestId)

    return server
