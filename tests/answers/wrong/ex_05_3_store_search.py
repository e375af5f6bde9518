"""Lets the store decide through `store.search`, the course's visibility filter: an ID the user may read is one the
search of every incident lists (red team rtgrade9 F2, s1). It never calls get, visible or can_read, and words the
refusal itself; it passed until the check's store recorded `search` too."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import incidents

EXPECT = "your tool called store.search"


def answer(store, user):
    server = MCPServer("incidents", log_level="WARNING")

    @server.tool(description="Read one incident by its ID.")
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        seen = {summary.incidentId for summary in store.search(user, "", True, 100000).incidents}
        if incidentId not in seen:
            raise ToolError(f"No incident {incidentId} is available to you. Find one with search_incidents.")
        return incidents.view(store.lookup(incidentId))

    return server
