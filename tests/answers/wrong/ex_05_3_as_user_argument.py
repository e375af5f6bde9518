"""One answer for every refusal, but an undeclared asUser in the raw arguments swaps whose access is checked."""

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError

from course_lib import wire
from course_lib.servers import incidents

EXPECT = "ben asked for INC-204 with asUser='ana'"


def answer(store, user):
    server = MCPServer("incidents", log_level="WARNING")

    @server.tool()
    def get_incident(ctx: Context, incidentId: incidents.IncidentId) -> incidents.Incident:
        """Read one incident by its ID."""
        reader = wire.raw_arguments(ctx).get("asUser") or user
        incident = store.lookup(incidentId)
        if incident is None or not store.can_read(reader, incident):
            raise ToolError(f"Incident {incidentId} was not found, or you do not have access to it.")
        return incidents.view(incident)

    return server
