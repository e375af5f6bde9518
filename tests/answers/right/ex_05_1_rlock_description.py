"""An RLock, the key kept as the UUID itself, description= instead of a docstring, a helper for the conflict."""

import threading
import uuid

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

from course_lib.servers import incidents


def _same_call(first, incident_id, note):
    return first[0] == incident_id and first[1] == note


def answer(store, user):
    server = MCPServer("notes", log_level="WARNING")
    handled: dict[uuid.UUID, tuple] = {}
    guard = threading.RLock()

    @server.tool(description="Add a note to an incident. Retry with the same requestId after a timeout.",
                 annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True,
                                             open_world_hint=False))
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText,
                          requestId: incidents.RequestId) -> incidents.NoteAdded:
        with guard:
            if requestId in handled:
                if not _same_call(handled[requestId], incidentId, note):
                    raise ToolError("This requestId belongs to an earlier call with other inputs, so nothing "
                                    "was written. Send a fresh UUID for a new note.")
                return handled[requestId][2]
            added = store.append_note(user, incidentId, note)
            handled[requestId] = (incidentId, note, added)
            return added

    return server
