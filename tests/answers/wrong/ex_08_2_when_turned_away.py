"""search_incidents says when NOT twice and never when: "Never use it when you already know an incident's ID"
turns the use away; its negation is before the condition, not inside it."""

EXPECT = "give every description a what, a when and a when-not"

from mcp.server import MCPServer
from course_lib.servers import incidents


def build_described_desk(store: incidents.Store, user: str) -> MCPServer:
    server = MCPServer("incident-notes", log_level="WARNING")

    @server.tool(description=(
        "Find incidents by words in their title and list their IDs. "
        "Never use it when you already know an incident's ID. "
        "Do not use it to read one incident whose ID you have; get_incident does that."))
    def search_incidents(query: str = "",
                         includeResolved: bool = False) -> incidents.IncidentList:
        return store.search(user, query, includeResolved)

    @server.tool(description=(
        "Read one incident by its ID (INC-123): title, severity, status and timeline notes. "
        "Use it when an ID is known and you need details or the latest notes. "
        "Do not use it to look for incidents by topic, or to write anything."))
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        return store.get(user, incidentId)

    @server.tool(description=(
        "Record a note on an incident's timeline, written as you. "
        "Use it to record an update, a finding or what was done on an incident. "
        "Do not use it to read incidents, to change their status or to act on a service."))
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText,
                          requestId: incidents.RequestId) -> incidents.NoteAdded:
        return store.add_note_once(user, incidentId, note, requestId)

    return server
answer = build_described_desk
