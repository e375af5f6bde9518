"""A small class guards the desk: it answers with the record only when this user may read it, and one refusal
built in one place for every other case (the message names the ID the caller sent, as the missing case would)."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import incidents


class Guard:
    def __init__(self, store, user):
        self.store, self.user = store, user

    def refusal(self, incident_id: str) -> ToolError:
        return ToolError(f"Incident {incident_id} was not found among the incidents you can see. "
                         "Use search_incidents to find the right ID.")

    def read(self, incident_id: str):
        record = self.store.lookup(incident_id)
        if record is None or not self.store.can_read(self.user, record):
            raise self.refusal(incident_id)
        return incidents.view(record)


def answer(store, user):
    guard = Guard(store, user)
    server = MCPServer("incidents", log_level="WARNING")

    @server.tool()
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        """Read one incident by its ID: title, service, severity, status and its latest notes."""
        return guard.read(incidentId)

    return server
