"""Calls store.lookup and store.can_read, but lets store.get decide anyway: every ID goes to store.get, and its
refusal becomes the ToolError. The decision is still the store's (the answer 5.3 asks the learner to make)."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import incidents

EXPECT = "your tool called store.get('ben', 'INC-104') before your own store.can_read let ben read it"


def answer(store, user):
    server = MCPServer("incidents", log_level="WARNING")

    @server.tool()
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        """Read one incident by its ID."""
        record = store.lookup(incidentId)
        if record is not None:
            store.can_read(user, record)
        try:
            return store.get(user, incidentId)
        except LookupError:
            raise ToolError(f"Incident {incidentId} was not found, or you cannot see it.") from None

    return server
