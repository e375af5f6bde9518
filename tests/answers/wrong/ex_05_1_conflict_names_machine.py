"""Refuses a conflicting reuse without changing anything, but signs the refusal with the machine's name, a
bare hostname that no domain pattern matches."""

import platform
import threading

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

from course_lib.servers import incidents

NOTE_HINTS = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False)

EXPECT = "internal host in"


def answer(store, user):
    server = MCPServer("notes", log_level="WARNING")
    first_calls = {}
    guard = threading.Lock()

    @server.tool(annotations=NOTE_HINTS)
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText,
                          requestId: incidents.RequestId) -> incidents.NoteAdded:
        """Append one note to an incident's timeline. Reuse a requestId only to retry the same call."""
        with guard:
            first = first_calls.get(str(requestId))
            if first is None:
                added = store.append_note(user, incidentId, note)
                first_calls[str(requestId)] = (incidentId, note, added)
                return added
            if first[:2] != (incidentId, note):
                raise ToolError("That requestId was already used for another note, so nothing was changed "
                                f"(answered by {platform.node()}). Send a new requestId for a new note.")
            return first[2]

    return server
