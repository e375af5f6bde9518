"""Names the idempotency parameter request_id (Python style) instead of requestId."""

import threading

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

from course_lib.servers import incidents

NOTE_HINTS = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False)

EXPECT = "found add_incident_note(incidentId, note, request_id)"


def answer(store, user):
    server = MCPServer("notes", log_level="WARNING")
    seen = {}
    lock = threading.Lock()

    @server.tool(annotations=NOTE_HINTS)
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText,
                          request_id: incidents.RequestId) -> incidents.NoteAdded:
        """Append one note to an incident's timeline. Reuse a request_id only to retry the same call."""
        key = str(request_id)
        with lock:
            if key in seen:
                first_incident, first_note, result = seen[key]
                if (first_incident, first_note) != (incidentId, note):
                    raise ToolError(f"request_id {key} was already used for a different note; nothing was "
                                    "changed. Use a new UUID for a new note.")
                return result
            result = store.append_note(user, incidentId, note)
            seen[key] = (incidentId, note, result)
            return result

    return server
