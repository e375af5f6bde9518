"""Descriptions assembled by a helper from what / when / when-not parts; parameter descriptions added too;
improved against the tune cases until 6 of 7."""

from typing import Annotated

from mcp.server import MCPServer
from pydantic import Field

from course_lib.servers import incidents


def describe(what: str, when: str, when_not: str) -> str:
    return f"{what} {when} {when_not}"


def answer(store: incidents.Store, user: str) -> MCPServer:
    server = MCPServer("incident-notes", log_level="WARNING")

    @server.tool(description=describe("Lists open incidents whose title or service mentions the given words.",
                                      "Use it to find or look up incidents about a topic, or to see which are open.",
                                      "Avoid it for rolling back or deploying, and for one incident's details."))
    def search_incidents(query: Annotated[str, Field(description="Words to look for.")] = "",
                         includeResolved: bool = False) -> incidents.IncidentList:
        return store.search(user, query, includeResolved)

    @server.tool(description=describe("Returns one incident: its title, service, severity, status and notes.",
                                      "Call it when the request gives an incident ID.",
                                      "It cannot search by words."))
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        return store.get(user, incidentId)

    @server.tool(description=describe("Adds a note to an incident's timeline.",
                                      "Use it to record, log or write down what was done, found or decided.",
                                      "Do not use it for reading an incident."))
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText,
                          requestId: incidents.RequestId) -> incidents.NoteAdded:
        return store.add_note_once(user, incidentId, note, requestId)

    return server
