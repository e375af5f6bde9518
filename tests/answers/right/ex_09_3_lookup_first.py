"""Reads the form before asking; decides with a small table of fixed outcomes."""

import mcp_types

FIXED = {None: "cancel", False: "decline"}


def answer(person):
    async def on_elicit(ctx, params: mcp_types.ElicitRequestFormParams) -> mcp_types.ElicitResult:
        name = list(params.requested_schema["properties"])[0]
        allowed = params.requested_schema["properties"][name].get("enum")
        reply = person(params.message)
        if reply is None or reply is False:
            return mcp_types.ElicitResult(action=FIXED[reply])
        boolean = params.requested_schema["properties"][name].get("type") == "boolean"
        if reply is True and not boolean:
            return mcp_types.ElicitResult(action="decline")
        if reply is not True and (allowed is None or reply not in allowed):
            return mcp_types.ElicitResult(action="decline")
        return mcp_types.ElicitResult(action="accept", content={name: reply})

    return on_elicit
