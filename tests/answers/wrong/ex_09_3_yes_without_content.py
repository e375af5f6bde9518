"""A yes accepts without content, as if accepting were enough: the form's boolean field is never filled in."""

import mcp_types

EXPECT = "accept with that field set to true"


def answer(person):
    async def on_elicit(ctx, params):
        answer = person(params.message)
        if answer is None:
            return mcp_types.ElicitResult(action="cancel")
        if answer is False:
            return mcp_types.ElicitResult(action="decline")
        if answer is True:
            return mcp_types.ElicitResult(action="accept")
        name, field = next(iter(params.requested_schema["properties"].items()))
        if answer in field.get("enum", []):
            return mcp_types.ElicitResult(action="accept", content={name: answer})
        return mcp_types.ElicitResult(action="decline")

    return on_elicit
