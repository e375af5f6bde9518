"""Hides the forbidden case behind a plain exception: its hidden-crash text still differs from "not found"."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import incidents

EXPECT = "hidden crash"


def answer(store, user):
    server = MCPServer("incidents", log_level="WARNING")

    @server.tool()
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        """Read one incident by its ID."""
        incident = store.lookup(incidentId)
        if incident is None:
            raise ToolError(f"Incident {incidentId} was not found.")
        if not store.can_read(user, incident):
            raise PermissionError(incidentId)
        return incidents.view(incident)

    return server
