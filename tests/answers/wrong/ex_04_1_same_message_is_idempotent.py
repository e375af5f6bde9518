"""Calls post_status_update idempotent ("the same message twice is the same post"); each call posts again."""

from mcp_types import ToolAnnotations

EXPECT = "post_status_update with idempotentHint false"


def answer():
    closed = {"open_world_hint": False}
    return {
        "get_service_status": ToolAnnotations(read_only_hint=True, **closed),
        "add_runbook_step": ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True,
                                            **closed),
        "delete_runbook": ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True, **closed),
        "post_status_update": ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True,
                                              open_world_hint=True),
    }
