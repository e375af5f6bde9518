"""Calls delete_runbook non-destructive ("it is meant to delete"): deleted steps cannot come back."""

from mcp_types import ToolAnnotations

EXPECT = "delete_runbook with destructiveHint true"


def answer():
    closed = {"open_world_hint": False}
    return {
        "get_service_status": ToolAnnotations(read_only_hint=True, **closed),
        "add_runbook_step": ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True,
                                            **closed),
        "delete_runbook": ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True,
                                          **closed),
        "post_status_update": ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False,
                                              open_world_hint=True),
    }
