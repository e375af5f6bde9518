"""Idempotent in behaviour, but the rewrite dropped the annotations: hosts now read it as destructive and not
idempotent, so they will not retry it."""

import threading

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import incidents

EXPECT = "still annotated as a change that is idempotent"


def answer(store, user):
    server = MCPServer("notes", log_level="WARNING")
    seen, lock = {}, threading.Lock()

    @server.tool()
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText,
                          requestId: incidents.RequestId) -> incidents.NoteAdded:
        """Append one note to an incident's timeline."""
        key = str(requestId)
        with lock:
            if key in seen:
                if seen[key][:2] != (incidentId, note):
                    raise ToolError("requestId was already used for a different note; nothing changed.")
                return seen[key][2]
            result = store.append_note(user, incidentId, note)
            seen[key] = (incidentId, note, result)
            return result

    return server
