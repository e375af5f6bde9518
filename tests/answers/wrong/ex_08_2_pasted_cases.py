"""Overfitting: the descriptions paste the eval cases' own wording."""

from mcp.server import MCPServer

from course_lib.servers import incidents

EXPECT = "not repeat five words in a row from any eval case's request"


def answer(store: incidents.Store, user: str) -> MCPServer:
    server = MCPServer("incident-notes", log_level="WARNING")

    @server.tool(description="Search the incidents for latency problems. Use it for 'Look up any incidents that "
                             "mention payments'. Do not use it to read notes.")
    def search_incidents(query: str = "", includeResolved: bool = False) -> incidents.IncidentList:
        return store.search(user, query, includeResolved)

    @server.tool(description="Pull up the details and recent notes of an incident. Use it when given an ID. "
                             "Do not use it to search.")
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        return store.get(user, incidentId)

    @server.tool(description="Write down on an incident that we decided something. Use it to record. Do not "
                             "use it to read.")
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText,
                          requestId: incidents.RequestId) -> incidents.NoteAdded:
        return store.add_note_once(user, incidentId, note, requestId)

    return server
