"""Better descriptions, but add_incident_note calls store.append_note: one call works, a retry writes the note
again."""

from mcp.server import MCPServer

from course_lib.servers import incidents

EXPECT = "after a note, its retry"


def answer(store, user):
    server = MCPServer("incident-notes", log_level="WARNING")

    @server.tool(description="Find incidents whose title or service contains the given words, newest first. "
                             "Use it to look up incident IDs by topic. Do not use it to read one incident's "
                             "notes, call get_incident for that.")
    def search_incidents(query: str = "", includeResolved: bool = False) -> incidents.IncidentList:
        return store.search(user, query, includeResolved)

    @server.tool(description="Read one incident by its ID: title, service, severity, status and its recent notes. "
                             "Use it when the request names an incident ID. Do not use it to search by words, "
                             "use search_incidents for that.")
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        return store.get(user, incidentId)

    @server.tool(description="Append a note to an incident's timeline, such as an action taken, a finding or a "
                             "decision. Use it to record or log something on an incident. Do not use it to read "
                             "notes, use get_incident for that.")
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText,
                          requestId: incidents.RequestId) -> incidents.NoteAdded:
        return store.append_note(user, incidentId, note)

    return server
