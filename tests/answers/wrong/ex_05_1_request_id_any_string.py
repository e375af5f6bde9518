"""Idempotent, but requestId is any string: 'retry-1' or '' are accepted as keys, so nothing asks for a UUID."""

import threading

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

from course_lib.servers import incidents

EXPECT = "UUID"


def answer(store, user):
    server = MCPServer("notes", log_level="WARNING")
    seen, lock = {}, threading.Lock()

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True,
                                             open_world_hint=False))
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText, requestId: str) -> incidents.NoteAdded:
        """Append one note to an incident's timeline."""
        with lock:
            if requestId in seen:
                if seen[requestId][:2] != (incidentId, note):
                    raise ToolError("requestId was already used for a different note; nothing changed.")
                return seen[requestId][2]
            result = store.append_note(user, incidentId, note)
            seen[requestId] = (incidentId, note, result)
            return result

    return server
