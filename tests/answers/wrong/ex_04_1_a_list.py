"""Returns the annotations as a list in tool order, not a dict keyed by name."""

from mcp_types import ToolAnnotations

EXPECT = 'return a dict with one `ToolAnnotations(...)`'

def answer():
    return [
        ToolAnnotations(read_only_hint=True, open_world_hint=False),
        ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False),
        ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False),
        ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=True),
    ]
