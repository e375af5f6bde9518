"""One message without the ID in it, raised from a helper that decides visibility."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import incidents


def _visible(store, user, incident_id):
    record = store.lookup(incident_id)
    return record if record is not None and store.can_read(user, record) else None


def answer(store, user):
    server = MCPServer("incidents", log_level="WARNING")

    @server.tool()
    async def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        """Read one incident by its ID."""
        record = _visible(store, user, incidentId)
        if record is None:
            raise ToolError("No such incident is available to you. Search with search_incidents and use an ID "
                            "from its results.")
        return incidents.view(record)

    return server
