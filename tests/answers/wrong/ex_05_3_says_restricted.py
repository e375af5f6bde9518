"""One refusal for all, but it names the reason for the restricted one."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import incidents

EXPECT = "and the missing INC-999 differ in content"


def answer(store, user):
    server = MCPServer("incidents", log_level="WARNING")

    @server.tool()
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        """Read one incident by its ID."""
        incident = store.lookup(incidentId)
        if incident is None or not store.can_read(user, incident):
            why = " (restricted)" if incident is not None and incident.restricted_to else ""
            raise ToolError(f"Incident {incidentId} was not found, or you do not have access to it{why}.")
        return incidents.view(incident)

    return server
