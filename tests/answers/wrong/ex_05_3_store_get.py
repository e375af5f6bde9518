"""Lets the store decide: store.get already answers missing and forbidden incidents alike, which is the answer
5.3 asks for (red team rtgrade7 c03). Kept as right until the rule `own` said so; now the check's store records
the call."""

from mcp.server import MCPServer

from course_lib.servers import incidents

EXPECT = "your tool called store.get('ben', 'INC-101') before your own store.can_read let ben read it"


def answer(store, user):
    server = MCPServer("incidents", log_level="WARNING")

    @server.tool(description="Read one incident by its ID.")
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        return store.get(user, incidentId)

    return server
