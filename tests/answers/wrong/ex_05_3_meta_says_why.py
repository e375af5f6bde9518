"""One text for missing and forbidden incidents, but _meta says which: 'restricted' or 'missing' leaks the
existence the text hides."""

import mcp_types
from mcp.server import MCPServer

from course_lib.servers import incidents

EXPECT = "differ in _meta"


def answer(store, user):
    server = MCPServer("incidents", log_level="WARNING")

    @server.tool()
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        """Read one incident by its ID."""
        incident = store.lookup(incidentId)
        if incident is None or not store.can_read(user, incident):
            text = (f"Error executing tool get_incident: Incident {incidentId} was not found, or you do not "
                    "have access to it.")
            return mcp_types.CallToolResult(is_error=True, content=[mcp_types.TextContent(type="text", text=text)],
                                            _meta={"reason": "missing" if incident is None else "restricted"})
        return incidents.view(incident)

    return server
