"""Async tools registered in another order, with titles; reads annotated in their own objects."""

from mcp.server import MCPServer
from mcp_types import ToolAnnotations
from pydantic import Field

from course_lib.servers import incidents


def answer(store, user):
    server = MCPServer("incident-desk", log_level="WARNING")

    @server.tool(title="Add a note", annotations=ToolAnnotations(
        readOnlyHint=False, destructiveHint=False, idempotentHint=True, openWorldHint=False))
    async def add_incident_note(requestId: incidents.RequestId, incidentId: incidents.IncidentId,
                                note: incidents.NoteText) -> incidents.NoteAdded:
        """Append a note to an incident. The same requestId on a retry adds it once."""
        return store.add_note_once(user, incidentId, note, requestId)

    @server.tool(title="Read an incident", annotations=ToolAnnotations(readOnlyHint=True, openWorldHint=False))
    async def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        """Read one incident by its ID."""
        return store.get(user, incidentId)

    @server.tool(title="Search incidents", annotations=ToolAnnotations(readOnlyHint=True, openWorldHint=False))
    async def search_incidents(includeResolved: bool = Field(default=False, description="Include resolved."),
                               query: str = Field(default="", max_length=100)) -> incidents.IncidentList:
        """Incidents you can see whose title or service contains the words of the query."""
        return store.search(user, query, include_resolved=includeResolved)

    return server
