"""An unseen answer (unseen11 wrongA, M6): a ledger of requestIds with a lock it never takes, so concurrent
retries race past the check. Its message also told the race's consequences as broken rules of their own (the
first result, a retry after other keys); the one rule it breaks is the concurrent retries."""

import threading

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

from course_lib.servers import incidents

EXPECT = "(check, write and record under one lock, or the retries race)"
NOT_SAID = ("the first call with a requestId", "a retry recognized whatever came in between")
NOTE_HINTS = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True,
                             open_world_hint=False)


class _Ledger:
    """What each requestId was first used for, and what it returned."""

    def __init__(self):
        self.lock = threading.Lock()
        self.seen = {}

    def once(self, key, inputs, write):
        if key in self.seen:
            first_inputs, first_result = self.seen[key]
            if first_inputs != inputs:
                raise ToolError("This requestId was already used for a different note or incident. "
                                "Use a new requestId for a new note; nothing was changed.")
            return first_result
        result = write()
        self.seen[key] = (inputs, result)
        return result


def answer(store, user):
    server = MCPServer("notes", log_level="WARNING")
    ledger = _Ledger()

    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText,
                          requestId: incidents.RequestId) -> incidents.NoteAdded:
        return ledger.once(str(requestId), (incidentId, note), lambda: store.append_note(user, incidentId, note))

    server.tool(annotations=NOTE_HINTS,
                description="Append one note to an incident's timeline; reuse a requestId to retry.")(add_incident_note)
    return server
