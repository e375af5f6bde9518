"""Asks for the record first and turns every 'cannot show it' into one ToolError with the ID."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import incidents


def answer(store, user):
    server = MCPServer("incidents", log_level="WARNING")

    @server.tool()
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        """Read one incident by its ID."""
        try:
            record = store.lookup(incidentId)
            if not store.can_read(user, record):
                raise LookupError
        except (LookupError, AttributeError):
            raise ToolError(f"I cannot find an incident {incidentId} that you can see. Check the ID, or "
                            "find it with search_incidents.") from None
        return incidents.view(record)

    return server
