"""Keeps only the three most recent requestIds (a small LRU cache): a retry of an older request writes again."""

import threading
from collections import OrderedDict

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

from course_lib.servers import incidents

EXPECT = "written again when"


def answer(store, user):
    server = MCPServer("notes", log_level="WARNING")
    recent, lock = OrderedDict(), threading.Lock()

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True,
                                             open_world_hint=False))
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText,
                          requestId: incidents.RequestId) -> incidents.NoteAdded:
        """Append one note to an incident's timeline."""
        key = str(requestId)
        with lock:
            if key in recent:
                recent.move_to_end(key)
                if recent[key][:2] != (incidentId, note):
                    raise ToolError("requestId was already used for a different note; nothing changed.")
                return recent[key][2]
            result = store.append_note(user, incidentId, note)
            recent[key] = (incidentId, note, result)
            if len(recent) > 3:
                recent.popitem(last=False)
            return result

    return server
