"""Treats every reuse of a requestId as a retry, even with a different note: the second note is silently lost."""

import threading

from mcp.server import MCPServer
from mcp_types import ToolAnnotations

from course_lib.servers import incidents

EXPECT = "refused with a ToolError that changes nothing"


def answer(store, user):
    server = MCPServer("notes", log_level="WARNING")
    seen, lock = {}, threading.Lock()

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True))
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText,
                          requestId: incidents.RequestId) -> incidents.NoteAdded:
        """Append one note to an incident's timeline."""
        with lock:
            if str(requestId) not in seen:
                seen[str(requestId)] = store.append_note(user, incidentId, note)
            return seen[str(requestId)]

    return server
