"""Plain dicts in wire spelling instead of ToolAnnotations objects."""


def answer():
    return {
        "post_status_update": {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": False,
                               "openWorldHint": True},
        "delete_runbook": {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": True,
                           "openWorldHint": False},
        "add_runbook_step": {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": True,
                             "openWorldHint": False},
        "get_service_status": {"readOnlyHint": True, "openWorldHint": False},
    }
