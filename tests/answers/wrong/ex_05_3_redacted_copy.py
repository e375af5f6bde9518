"""Returns a redacted copy of a forbidden incident: no secret text, but a success, so it exists."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import incidents

EXPECT = "refused with isError and none of its data"


def answer(store, user):
    server = MCPServer("incidents", log_level="WARNING")

    @server.tool()
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        """Read one incident by its ID."""
        incident = store.lookup(incidentId)
        if incident is None:
            raise ToolError(f"Incident {incidentId} was not found.")
        seen = incidents.view(incident)
        if not store.can_read(user, incident):
            return seen.model_copy(update={"title": "[restricted]", "notes": []})
        return seen

    return server
