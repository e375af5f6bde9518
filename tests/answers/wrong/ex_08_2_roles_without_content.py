"""Every role present in form, none says what the tool is for: held-out accuracy does not rise."""

from mcp.server import MCPServer

from course_lib.servers import incidents

EXPECT = "get at least 6 of the 7 tune cases right with the offline chooser"


def answer(store: incidents.Store, user: str) -> MCPServer:
    server = MCPServer("incident-notes", log_level="WARNING")

    @server.tool(description="Incident tool one. Use it when it fits. Do not use it otherwise.")
    def search_incidents(query: str = "", includeResolved: bool = False) -> incidents.IncidentList:
        return store.search(user, query, includeResolved)

    @server.tool(description="Incident tool two. Use it when it fits. Do not use it otherwise.")
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        return store.get(user, incidentId)

    @server.tool(description="Incident tool three. Use it when it fits. Do not use it otherwise.")
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText,
                          requestId: incidents.RequestId) -> incidents.NoteAdded:
        return store.add_note_once(user, incidentId, note, requestId)

    return server
