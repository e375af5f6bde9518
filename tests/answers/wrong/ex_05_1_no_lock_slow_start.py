"""No lock, on a server whose calls start one after another (a slow or loaded machine): each retry reaches its
check 80 ms after the one before, later than a 50 ms write ends, so the race shows only if the check's store
holds its first write until a second starts."""

import threading
import time

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

from course_lib.servers import incidents

EXPECT = "200 concurrent retries of one call"


def answer(store, user):
    server = MCPServer("notes", log_level="WARNING")
    seen = {}
    arrived = [0]
    counting = threading.Lock()

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True))
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText,
                          requestId: incidents.RequestId) -> incidents.NoteAdded:
        """Append one note to an incident's timeline."""
        with counting:
            arrived[0] += 1
            turn = arrived[0]
        time.sleep(0.08 * min(turn, 10))
        key = str(requestId)
        if key in seen:
            if seen[key][:2] != (incidentId, note):
                raise ToolError("requestId was already used for a different note.")
            return seen[key][2]
        result = store.append_note(user, incidentId, note)
        seen[key] = (incidentId, note, result)
        return result

    return server
