"""Honest hints in wire form, written as the strings "true" and "false": pydantic would turn them into booleans,
but a wire-form dict holds real booleans."""

EXPECT = "true or false, not a string or number"


def answer():
    return {
        "get_service_status": {"readOnlyHint": "true", "openWorldHint": "false"},
        "add_runbook_step": {"readOnlyHint": "false", "destructiveHint": "false", "idempotentHint": "true",
                             "openWorldHint": "false"},
        "delete_runbook": {"readOnlyHint": "false", "destructiveHint": "true", "idempotentHint": "true",
                           "openWorldHint": "false"},
        "post_status_update": {"readOnlyHint": "false", "destructiveHint": "false", "idempotentHint": "false",
                               "openWorldHint": "true"},
    }
