"""Checks access, but always as ana, whoever is signed in."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import incidents

EXPECT = "ben"


def answer(store, user):
    server = MCPServer("incidents", log_level="WARNING")

    @server.tool()
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        """Read one incident by its ID."""
        incident = store.lookup(incidentId)
        if incident is None or not store.can_read("ana", incident):
            raise ToolError(f"Incident {incidentId} was not found, or you do not have access to it.")
        return incidents.view(incident)

    return server
