"""Right but for one normalisation the text forbids: a reused requestId whose note differs only in case or
spacing is taken as a retry of the original, not refused as a conflict."""

import asyncio
import uuid
from typing import Annotated

import anyio
from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from pydantic import Field

from course_lib.servers import incidents

EXPECT = "the note in lower case"


def answer(store, user):
    server = MCPServer("notes", log_level="WARNING")
    results = {}
    lock = asyncio.Lock()

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True,
                                             open_world_hint=False))
    async def add_incident_note(
        incidentId: Annotated[str, Field(pattern=r"^INC-[0-9]+$")],
        note: Annotated[str, Field(min_length=1, max_length=500)],
        requestId: uuid.UUID,
    ) -> incidents.NoteAdded:
        """Append one note to an incident's timeline; a retry with the same requestId adds nothing."""
        async with lock:
            if str(requestId) in results:
                inputs, first = results[str(requestId)]
                if inputs != (incidentId, " ".join(note.lower().split())):
                    raise ToolError(f"requestId {requestId} was used before with another incident or text. "
                                    "Nothing changed; use a new requestId for a new note.")
                return first
            first = await anyio.to_thread.run_sync(store.append_note, user, incidentId, note)
            results[str(requestId)] = ((incidentId, " ".join(note.lower().split())), first)
            return first

    return server
