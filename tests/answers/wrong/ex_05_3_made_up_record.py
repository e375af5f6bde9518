"""Shows store.can_read a made-up record (a copy of one this user may read, under the asked ID), so a check that
trusted any true can_read would let the store.get after it pass; store.get still makes the decision."""

import dataclasses

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import incidents

EXPECT = "your tool called store.get('ben', 'INC-102') before your own store.can_read let ben read it"


def answer(store, user):
    server = MCPServer("incidents", log_level="WARNING")
    records = [store.lookup(f"INC-{number}") for number in range(100, 400)]
    mine = next(record for record in records if record is not None and store.can_read(user, record))

    @server.tool()
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        """Read one incident by its ID."""
        if store.can_read(user, dataclasses.replace(mine, incident_id=incidentId)):
            try:
                return store.get(user, incidentId)
            except LookupError:
                pass
        raise ToolError(f"Incident {incidentId} was not found, or you cannot see it.")

    return server
