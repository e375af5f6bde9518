"""Keyword stuffing: every synonym anyone might use, far past 60 words."""

from mcp.server import MCPServer

from course_lib.servers import incidents

EXPECT = "keep every description to at most 60 words"
WORDS = ("find search look up list query locate browse discover show enumerate fetch retrieve scan filter match "
         "incidents outages problems issues tickets alerts events failures errors payments checkout search auth "
         "inventory latency slow stale broken down resolved open closed ") * 2


def answer(store: incidents.Store, user: str) -> MCPServer:
    server = MCPServer("incident-notes", log_level="WARNING")

    @server.tool(description=f"Find incidents by topic. Use it for {WORDS}. Do not use it to read notes.")
    def search_incidents(query: str = "", includeResolved: bool = False) -> incidents.IncidentList:
        return store.search(user, query, includeResolved)

    @server.tool(description="Read one incident by ID. Use it when given an ID. Do not use it to search.")
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        return store.get(user, incidentId)

    @server.tool(description="Add a note to an incident. Use it to record things. Do not use it to read.")
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText,
                          requestId: incidents.RequestId) -> incidents.NoteAdded:
        return store.add_note_once(user, incidentId, note, requestId)

    return server
