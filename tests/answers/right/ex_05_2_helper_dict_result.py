"""A helper builds the annotations; search returns the store's result as a model_dump through the same model."""

from mcp.server import MCPServer
from mcp_types import ToolAnnotations

from course_lib.servers import incidents


def hints(*, reads: bool) -> ToolAnnotations:
    if reads:
        return ToolAnnotations(read_only_hint=True, open_world_hint=False)
    return ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False)


def answer(store, user):
    server = MCPServer("incidents", log_level="WARNING")

    @server.tool(annotations=hints(reads=True))
    def search_incidents(query: str = "", includeResolved: bool = False) -> incidents.IncidentList:
        """List incidents matching the query (open ones unless includeResolved)."""
        found = store.search(user, query=query, include_resolved=includeResolved)
        return incidents.IncidentList.model_validate(found.model_dump())

    @server.tool(annotations=hints(reads=True))
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        """Read one incident by its ID."""
        return store.get(user, incidentId)

    @server.tool(annotations=hints(reads=False))
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText,
                          requestId: incidents.RequestId) -> incidents.NoteAdded:
        """Append a note; retry with the same requestId."""
        return store.add_note_once(user, incidentId, note, requestId)

    return server
