"""One-line docstrings instead of description=, different wording; improved against the tune cases until 6 of 7."""

from mcp.server import MCPServer

from course_lib.servers import incidents


def answer(store: incidents.Store, user: str) -> MCPServer:
    server = MCPServer("incident-notes", log_level="WARNING")

    @server.tool()
    def search_incidents(query: str = "", includeResolved: bool = False) -> incidents.IncidentList:
        """Search open incidents by keywords in their title or service and list the matches (resolved ones with includeResolved). Use it to look up which incidents are open or exist about a topic. Do not use it to deploy or roll back, or when you already have an incident ID."""
        return store.search(user, query, includeResolved)

    @server.tool()
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        """Show the details of one incident: severity, service, status and the latest notes. Use it when an incident ID is given. Never use it to find incidents by keyword."""
        return store.get(user, incidentId)

    @server.tool()
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText,
                          requestId: incidents.RequestId) -> incidents.NoteAdded:
        """Write a note on an incident's timeline to record or log a finding, an action or a decision. Use it when someone wants something noted on an incident. Do not use it to read notes."""
        return store.add_note_once(user, incidentId, note, requestId)

    return server
