"""One refusal for all, but it carries the SQL the backend ran."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import incidents

EXPECT = "internals"


def answer(store, user):
    server = MCPServer("incidents", log_level="WARNING")

    @server.tool()
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        """Read one incident by its ID."""
        incident = store.lookup(incidentId)
        if incident is None or not store.can_read(user, incident):
            raise ToolError(f"Incident {incidentId} was not found: SELECT * FROM incidents WHERE id = \x27{incidentId}\x27 returned no visible row.")
        return incidents.view(incident)

    return server
