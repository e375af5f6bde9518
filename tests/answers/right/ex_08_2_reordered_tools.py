"""Tools registered in another order, with terse but complete descriptions, improved against the tune cases."""

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

    @server.tool(description="Find open incidents that mention some words, newest first. Use it to look up "
                             "incidents by topic or service, or which are open. Do not use it to roll back or "
                             "deploy anything.")
    def search_incidents(query: str = "", includeResolved: bool = False) -> incidents.IncidentList:
        return store.search(user, query, includeResolved)

    return server
