"""Renamed a tool while rewriting: clients that call get_incident break."""

from mcp.server import MCPServer

from course_lib.servers import incidents

EXPECT = "read_incident(incidentId)"


def answer(store: incidents.Store, user: str) -> MCPServer:
    server = MCPServer("incident-notes", log_level="WARNING")

    @server.tool(description="Find incidents by words. Use it to look up incidents. Do not use it to read one.")
    def search_incidents(query: str = "", includeResolved: bool = False) -> incidents.IncidentList:
        return store.search(user, query, includeResolved)

    @server.tool(description="Read one incident. Use it when given an ID. Do not use it to search.")
    def read_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        return store.get(user, incidentId)

    @server.tool(description="Add a note. Use it to record things. Do not use it to read.")
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText,
                          requestId: incidents.RequestId) -> incidents.NoteAdded:
        return store.add_note_once(user, incidentId, note, requestId)

    return server
