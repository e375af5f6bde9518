"""Compares only the note text on a reused requestId: the same text for another incident passes as a retry."""

import threading

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

from course_lib.servers import incidents

EXPECT = "a different incident"


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
                if seen[key][0] != note:
                    raise ToolError("requestId was already used for a different note; nothing changed.")
                return seen[key][1]
            result = store.append_note(user, incidentId, note)
            seen[key] = (note, result)
            return result

    return server
