"""Says what and when, never when not."""

from mcp.server import MCPServer

from course_lib.servers import incidents

EXPECT = "give every description a what, a when and a when-not"


def answer(store: incidents.Store, user: str) -> MCPServer:
    server = MCPServer("incident-notes", log_level="WARNING")

    @server.tool(description="Find incidents by words in their title or service. Use it to look up incidents.")
    def search_incidents(query: str = "", includeResolved: bool = False) -> incidents.IncidentList:
        return store.search(user, query, includeResolved)

    @server.tool(description="Read one incident and its recent notes. Use it when you have an incident ID.")
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        return store.get(user, incidentId)

    @server.tool(description="Add a note to an incident. Use it to record or log what happened.")
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText,
                          requestId: incidents.RequestId) -> incidents.NoteAdded:
        return store.add_note_once(user, incidentId, note, requestId)

    return server
