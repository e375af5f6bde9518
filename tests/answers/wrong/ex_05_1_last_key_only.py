"""Remembers only the last requestId: A, B, then a retry of A writes A's note a second time."""

import threading

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

from course_lib.servers import incidents

EXPECT = "whatever came in between"


def answer(store, user):
    server = MCPServer("notes", log_level="WARNING")
    last = {}
    lock = threading.Lock()

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True,
                                             open_world_hint=False))
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText,
                          requestId: incidents.RequestId) -> incidents.NoteAdded:
        """Append one note to an incident's timeline."""
        with lock:
            if last.get("key") == str(requestId):
                if last["inputs"] != (incidentId, note):
                    raise ToolError("requestId was already used for a different note; nothing changed.")
                return last["result"]
            result = store.append_note(user, incidentId, note)
            last.update(key=str(requestId), inputs=(incidentId, note), result=result)
            return result

    return server
