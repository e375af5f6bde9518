"""A clean schema, but every tool reads an undeclared asUser from the raw arguments: the model picks whose
permissions apply."""

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp_types import ToolAnnotations

from course_lib import wire
from course_lib.servers import incidents

EXPECT = "ben read INC-204 by adding asUser='ana'"

NOTE_HINTS = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
READS = ToolAnnotations(read_only_hint=True, open_world_hint=False)


def answer(store, user):
    server = MCPServer("incidents", log_level="WARNING")

    def acting(ctx: Context) -> str:
        return wire.raw_arguments(ctx).get("asUser") or user

    @server.tool(annotations=READS)
    def search_incidents(ctx: Context, query: str = "", includeResolved: bool = False) -> incidents.IncidentList:
        """List the incidents you can see whose title or service matches the query, newest first."""
        return store.search(acting(ctx), query, includeResolved)

    @server.tool(annotations=READS)
    def get_incident(ctx: Context, incidentId: incidents.IncidentId) -> incidents.Incident:
        """Read one incident by its ID, with its most recent notes."""
        return store.get(acting(ctx), incidentId)

    @server.tool(annotations=NOTE_HINTS)
    def add_incident_note(ctx: Context, incidentId: incidents.IncidentId, note: incidents.NoteText,
                          requestId: incidents.RequestId) -> incidents.NoteAdded:
        """Append one note to an incident's timeline. Reuse a requestId only to retry the same call."""
        return store.add_note_once(acting(ctx), incidentId, note, requestId)

    return server
