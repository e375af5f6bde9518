"""A missing and a restricted incident are refused with messages that differ by one character; asUser is
ignored (the SDK drops it), so only the one-answer rule is broken, not the signed-in user's."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import incidents

EXPECT = "INC-204 and the missing INC-999 differ"


def answer(store, user):
    server = MCPServer("incidents", log_level="WARNING")

    @server.tool()
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        """Fetch a single incident you are allowed to see, with its title, status and notes."""
        incident = store.lookup(incidentId)
        if incident is None:
            raise ToolError(f"Incident {incidentId} was not found.")
        if not store.can_read(user, incident):
            raise ToolError(f"Incident {incidentId} was not found!")
        return incidents.view(incident)

    return server
