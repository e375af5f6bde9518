"""Refuses a conflicting reuse, but passes on the database's wording: the message shows the SQL statement."""

import threading

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

from course_lib.servers import incidents

NOTE_HINTS = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False)

EXPECT = "UNIQUE constraint failed"


def answer(store, user):
    server = MCPServer("notes", log_level="WARNING")
    seen = {}
    lock = threading.Lock()

    @server.tool(annotations=NOTE_HINTS)
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText,
                          requestId: incidents.RequestId) -> incidents.NoteAdded:
        """Append one note to an incident's timeline. Reuse a requestId only to retry the same call."""
        key = str(requestId)
        with lock:
            if key in seen:
                first_incident, first_note, result = seen[key]
                if (first_incident, first_note) != (incidentId, note):
                    raise ToolError(f"UNIQUE constraint failed: INSERT INTO note_requests (request_id, incident_id) "
                                    f"VALUES ('{key}', '{incidentId}')")
                return result
            result = store.append_note(user, incidentId, note)
            seen[key] = (incidentId, note, result)
            return result

    return server
