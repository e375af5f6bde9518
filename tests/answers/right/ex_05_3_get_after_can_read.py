"""An unseen answer (round 9, W2 of unseen11): decides with store.lookup and store.can_read, one ToolError for
missing, foreign and restricted, and only then reads the incident with store.get: the store's own guarded
read, after the decision was made."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import incidents


def answer(store, user):
    server = MCPServer("incidents", log_level="WARNING")

    @server.tool()
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        """Read one incident you have access to, by its ID."""
        record = store.lookup(incidentId)
        if record is not None and store.can_read(user, record):
            return store.get(user, incidentId)
        raise ToolError(f"No incident {incidentId} that you can read. Check the ID, or search for the incident.")

    return server
