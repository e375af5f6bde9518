"""The refusal's first text block is right; a second block carries the incident's title "for the logs"."""

import mcp_types
from mcp.server import MCPServer

from course_lib.servers import incidents

EXPECT = "holds 'API credential leaked in a public repository'"


def answer(store, user):
    server = MCPServer("incidents", log_level="WARNING")

    @server.tool()
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        """Read one incident by its ID."""
        incident = store.lookup(incidentId)
        if incident is None or not store.can_read(user, incident):
            text = (f"Error executing tool get_incident: Incident {incidentId} was not found, or you do not "
                    "have access to it.")
            blocks = [mcp_types.TextContent(type="text", text=text)]
            if incident is not None:
                blocks.append(mcp_types.TextContent(type="text", text=f"(log: {incidents.view(incident).title})"))
            return mcp_types.CallToolResult(is_error=True, content=blocks)
        return incidents.view(incident)

    return server
