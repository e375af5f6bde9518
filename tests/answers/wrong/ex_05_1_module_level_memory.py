"""Keeps handled requestIds in module-level memory shared by every server: a second server on its own store
never writes a note whose requestId another server has seen."""

import threading

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

from course_lib.servers import incidents

EXPECT = "is the memory shared between servers?"

SEEN = {}
LOCK = threading.Lock()


def answer(store, user):
    server = MCPServer("notes", log_level="WARNING")

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True,
                                             open_world_hint=False))
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText,
                          requestId: incidents.RequestId) -> incidents.NoteAdded:
        """Append one note to an incident's timeline."""
        with LOCK:
            key = str(requestId)
            if key in SEEN:
                if SEEN[key][:2] != (incidentId, note):
                    raise ToolError("requestId was already used for a different note; nothing changed.")
                return SEEN[key][2]
            result = store.append_note(user, incidentId, note)
            SEEN[key] = (incidentId, note, result)
            return result

    return server
