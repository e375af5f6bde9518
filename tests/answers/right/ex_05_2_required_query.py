"""The query is required (the text does not say whether it is), so every search names its words."""

from mcp.server import MCPServer
from mcp_types import ToolAnnotations

from course_lib.servers import incidents

READS = ToolAnnotations(read_only_hint=True, open_world_hint=False)
NOTE = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False)


def answer(store, user):
    server = MCPServer("incidents", log_level="WARNING")

    @server.tool(annotations=READS)
    def search_incidents(query: str, includeResolved: bool = False) -> incidents.IncidentList:
        """Incidents you can see whose title or service has every word of the query ('' for all)."""
        return store.search(user, query, includeResolved)

    @server.tool(annotations=READS)
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        """Read one incident by its ID."""
        return store.get(user, incidentId)

    @server.tool(annotations=NOTE)
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText,
                          requestId: incidents.RequestId) -> incidents.NoteAdded:
        """Append a note to an incident; a retry with the same requestId adds it once."""
        return store.add_note_once(user, incidentId, note, requestId)

    return server
