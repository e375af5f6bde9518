"""A Semaphore(1) as the lock and a dataclass per handled request; the conflict check written out field by field."""

import threading
from dataclasses import dataclass

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

from course_lib.servers import incidents


@dataclass(frozen=True)
class Handled:
    incident_id: str
    text: str
    result: incidents.NoteAdded


def answer(store, user):
    server = MCPServer("notes", log_level="WARNING")
    ledger: dict[str, Handled] = {}
    one_at_a_time = threading.Semaphore(1)

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True,
                                             open_world_hint=False))
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText,
                          requestId: incidents.RequestId) -> incidents.NoteAdded:
        """Append one note to an incident's timeline. Reuse a requestId only to retry the same call."""
        key = str(requestId).lower()
        with one_at_a_time:
            earlier = ledger.get(key)
            if earlier is not None:
                if earlier.incident_id != incidentId or earlier.text != note:
                    raise ToolError("Conflict: that requestId already added another note. Nothing was changed; "
                                    "pick a new requestId.")
                return earlier.result
            result = store.append_note(user, incidentId, note)
            ledger[key] = Handled(incidentId, note, result)
            return result

    return server
