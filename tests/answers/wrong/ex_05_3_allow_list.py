"""Hard-codes the two hidden incidents of the lesson: gil reads acme's INC-101, ana cannot read INC-204."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import incidents

EXPECT = "ben read INC-302"


def answer(store, user):
    server = MCPServer("incidents", log_level="WARNING")

    @server.tool()
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        """Read one incident by its ID."""
        incident = store.lookup(incidentId)
        if incident is None or incidentId in ("INC-204", "INC-301"):
            raise ToolError(f"Incident {incidentId} was not found, or you do not have access to it.")
        return incidents.view(incident)

    return server
