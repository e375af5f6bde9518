"""Leaves out every hint whose default is already the honest value, and adds titles."""

from mcp_types import ToolAnnotations


def answer():
    return {
        "get_service_status": ToolAnnotations(title="Service status", read_only_hint=True, open_world_hint=False,
                                              idempotent_hint=True, destructive_hint=False),
        "add_runbook_step": ToolAnnotations(destructive_hint=False, idempotent_hint=True, open_world_hint=False),
        "delete_runbook": ToolAnnotations(title="Delete runbook", idempotent_hint=True, open_world_hint=False),
        "post_status_update": ToolAnnotations(destructive_hint=False),
    }
