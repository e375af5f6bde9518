"""Builds the annotations with a helper that says what each tool touches."""

from mcp_types import ToolAnnotations


def hints(*, reads_only=False, removes=False, repeat_safe=False, public=False) -> ToolAnnotations:
    if reads_only:
        return ToolAnnotations(read_only_hint=True, open_world_hint=public)
    return ToolAnnotations(read_only_hint=False, destructive_hint=removes, idempotent_hint=repeat_safe,
                           open_world_hint=public)


def answer():
    return dict(
        get_service_status=hints(reads_only=True),
        add_runbook_step=hints(repeat_safe=True),
        delete_runbook=hints(removes=True, repeat_safe=True),
        post_status_update=hints(public=True),
    )
