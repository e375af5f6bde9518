"""Hands the whole job to store.add_note_once, the answer the text sets aside: nothing of its own is built."""

from mcp.server import MCPServer
from mcp_types import ToolAnnotations

from course_lib.servers import incidents

EXPECT = "your tool called store.add_note_once"

NOTE_HINTS = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False)


def answer(store, user):
    server = MCPServer("notes", log_level="WARNING")

    @server.tool(annotations=NOTE_HINTS)
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText,
                          requestId: incidents.RequestId) -> incidents.NoteAdded:
        """Append one note to an incident's timeline. Reuse a requestId only to retry the same call."""
        return store.add_note_once(user, incidentId, note, requestId)

    return server
