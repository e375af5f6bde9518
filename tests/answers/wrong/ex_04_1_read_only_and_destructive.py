"""Marks the read-only status tool destructive too: a contradiction a host cannot act on."""

from mcp_types import ToolAnnotations

EXPECT = "never set `destructiveHint` true on a read-only tool"


def answer():
    closed = {"open_world_hint": False}
    return {
        "get_service_status": ToolAnnotations(read_only_hint=True, destructive_hint=True, **closed),
        "add_runbook_step": ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True,
                                            **closed),
        "delete_runbook": ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True, **closed),
        "post_status_update": ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False,
                                              open_world_hint=True),
    }
