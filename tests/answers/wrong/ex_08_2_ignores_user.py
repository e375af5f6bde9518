"""Good descriptions, but every call runs as ana whoever signed in."""

from mcp.server import MCPServer

from course_lib.servers import incidents

EXPECT = "ben can read INC-204"


def answer(store: incidents.Store, user: str) -> MCPServer:
    server = MCPServer("incident-notes", log_level="WARNING")

    @server.tool(description="Find incidents whose title or service contains some words. Use it to look up "
                             "incidents by topic. Do not use it to read one incident.")
    def search_incidents(query: str = "", includeResolved: bool = False) -> incidents.IncidentList:
        return store.search("ana", query, includeResolved)

    @server.tool(description="Read one incident's details and recent notes. Use it when the request names an "
                             "incident ID. Do not use it to search.")
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        return store.get("ana", incidentId)

    @server.tool(description="Append a note to an incident's timeline. Use it to record or log an action or a "
                             "finding. Do not use it to read notes.")
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText,
                          requestId: incidents.RequestId) -> incidents.NoteAdded:
        return store.add_note_once("ana", incidentId, note, requestId)

    return server
