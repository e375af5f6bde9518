"""Well-formed descriptions that do not say what get_incident returns (severity, service): held-out stays at 6 of 8.

Written as a right answer before the check ran; the held-out rule rejects it, as the exercise states.
"""

from typing import Annotated

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import incidents

EXPECT = "get at least 6 of the 7 tune cases right with the offline chooser"


def describe(what: str, when: str, when_not: str) -> str:
    return f"{what} {when} {when_not}"


def answer(store: incidents.Store, user: str) -> MCPServer:
    server = MCPServer("incident-notes", log_level="WARNING")

    @server.tool(description=describe("Lists the incidents matching some words in their title or service.",
                                      "Use it to find or look up incidents on a topic.",
                                      "Avoid it for reading one incident's details; get_incident does that."))
    def search_incidents(query: Annotated[str, Field(description="Words to look for.")] = "",
                         includeResolved: bool = False) -> incidents.IncidentList:
        return store.search(user, query, includeResolved)

    @server.tool(description=describe("Returns one incident with its details and recent notes.",
                                      "Call it when the request gives an incident ID.",
                                      "It does not search, so do not use it without an ID."))
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        return store.get(user, incidentId)

    @server.tool(description=describe("Adds a note to an incident's timeline.",
                                      "Use it to record, log or write down what was done, found or decided.",
                                      "Do not use it for reading an incident."))
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText,
                          requestId: incidents.RequestId) -> incidents.NoteAdded:
        return store.add_note_once(user, incidentId, note, requestId)

    return server
