"""Thinks appending can never be idempotent, ignoring the requestId that makes a retry add nothing."""

from mcp_types import ToolAnnotations

EXPECT = "add_runbook_step with idempotentHint true"


def answer():
    closed = {"open_world_hint": False}
    return {
        "get_service_status": ToolAnnotations(read_only_hint=True, **closed),
        "add_runbook_step": ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False,
                                            **closed),
        "delete_runbook": ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True, **closed),
        "post_status_update": ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False,
                                              open_world_hint=True),
    }
