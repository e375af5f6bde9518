"""Handles requestIds well, but also refuses to store the same text twice: two real notes become one."""

import threading

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

from course_lib.servers import incidents

EXPECT = "a new requestId to add a new note, even with the same text"


def answer(store, user):
    server = MCPServer("notes", log_level="WARNING")
    seen, lock = {}, threading.Lock()

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True))
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText,
                          requestId: incidents.RequestId) -> incidents.NoteAdded:
        """Append one note to an incident's timeline."""
        key = str(requestId)
        with lock:
            if key in seen:
                if seen[key][:2] != (incidentId, note):
                    raise ToolError("requestId was already used for a different note.")
                return seen[key][2]
            same_text = [n for n in store.notes(incidentId) if n.text == note]
            if same_text:  # "no duplicate notes": but this is a second, deliberate request
                result = incidents.NoteAdded(incidentId=incidentId, noteId=same_text[0].noteId,
                                             author=same_text[0].author, text=note)
            else:
                result = store.append_note(user, incidentId, note)
            seen[key] = (incidentId, note, result)
            return result

    return server
