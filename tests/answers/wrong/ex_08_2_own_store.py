"""Good descriptions, but search_incidents reads a store the answer made for itself, not the one it was given
(the rule 'keep the bodies: the tools work on store, as user'): its data looks the same until the given store
changes."""

from mcp.server import MCPServer

from course_lib.servers import incidents

EXPECT = "built for gil on a store where INC-301 is closed, search found"

_DEMO = incidents.Store()

SEARCH = ("Find incidents by words in their title or service, newest first; resolved ones only when "
          "includeResolved is true. Use it to search or list incidents, for example the open ones. "
          "Do not use it to read one incident by ID (call get_incident), nor to deploy or roll back.")
GET = ("Read one incident by its ID: title, service, severity, status and recent "
       "notes. Use it to get the status or details of a known incident. Do not use it to search by "
       "words or to change anything.")
NOTE = ("Add a note to an incident's timeline, once per requestId. Use it to record a finding, action "
        "or decision on an incident. Do not use it to read incidents, to deploy, or to roll back a service.")


def answer(store: incidents.Store, user: str) -> MCPServer:
    server = MCPServer("incident-notes", log_level="WARNING")

    @server.tool(description=SEARCH)
    def search_incidents(query: str = "", includeResolved: bool = False) -> incidents.IncidentList:
        return _DEMO.search(user, query, includeResolved)

    @server.tool(description=GET)
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        return store.get(user, incidentId)

    @server.tool(description=NOTE)
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText,
                          requestId: incidents.RequestId) -> incidents.NoteAdded:
        return store.add_note_once(user, incidentId, note, requestId)

    return server
