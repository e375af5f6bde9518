"""Changed a default while rewriting: a search now shows resolved incidents unless told otherwise."""

EXPECT = 'found search_incidents\'s includeResolved: {"default": true'

from mcp.server import MCPServer

from course_lib.servers import incidents


def answer(store: incidents.Store, user: str) -> MCPServer:
    server = MCPServer("incident-notes", log_level="WARNING")

    @server.tool(description="Record a note (an action, finding or decision) on one incident. Use it to log "
                             "progress on an incident. Do not use it to look anything up.")
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText,
                          requestId: incidents.RequestId) -> incidents.NoteAdded:
        return store.add_note_once(user, incidentId, note, requestId)

    @server.tool(description="Read one incident's details: title, service, severity, status, recent notes. Use "
                             "it when you know the incident ID. Do not use it to search.")
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        return store.get(user, incidentId)

    @server.tool(description="Find incidents that mention some words, newest first. Use it to look up incidents "
                             "by topic or service. Do not use it to read one incident's notes.")
    def search_incidents(query: str = "", includeResolved: bool = True) -> incidents.IncidentList:
        return store.search(user, query, includeResolved)

    return server
