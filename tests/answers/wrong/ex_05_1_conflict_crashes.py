"""Detects the conflict but raises a plain exception: the model reads only 'Error executing tool ...'."""

import threading

from mcp.server import MCPServer
from mcp_types import ToolAnnotations

from course_lib.servers import incidents

EXPECT = "hidden crash"


def answer(store, user):
    server = MCPServer("notes", log_level="WARNING")
    seen, lock = {}, threading.Lock()

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True,
                                             open_world_hint=False))
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText,
                          requestId: incidents.RequestId) -> incidents.NoteAdded:
        """Append one note to an incident's timeline."""
        key = str(requestId)
        with lock:
            if key in seen:
                if seen[key][:2] != (incidentId, note):
                    raise ValueError("requestId was already used for a different note")
                return seen[key][2]
            result = store.append_note(user, incidentId, note)
            seen[key] = (incidentId, note, result)
            return result

    return server
