"""Gets the read/change hints right but never says openWorldHint, so every tool reads as reaching outside."""

from mcp_types import ToolAnnotations

EXPECT = "get_service_status with openWorldHint false"


def answer():
    return {
        "get_service_status": ToolAnnotations(read_only_hint=True),
        "add_runbook_step": ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True),
        "delete_runbook": ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True),
        "post_status_update": ToolAnnotations(read_only_hint=False, destructive_hint=False),
    }
