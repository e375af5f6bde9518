"""Refuses every restricted incident, even to the team it is restricted to."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import incidents

EXPECT = "get_incident to return every incident the signed-in user may read"


def answer(store, user):
    server = MCPServer("incidents", log_level="WARNING")

    @server.tool()
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        """Read one incident by its ID."""
        incident = store.lookup(incidentId)
        if incident is None or not store.can_read(user, incident) or incident.restricted_to is not None:
            raise ToolError(f"Incident {incidentId} was not found, or you do not have access to it. "
                            "Use search_incidents to find the IDs you can see.")
        return incidents.view(incident)

    return server
