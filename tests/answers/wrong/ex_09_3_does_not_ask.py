"""Always says yes for the person."""

import mcp_types

EXPECT = "the person was asked 0 time(s)"


def answer(person):
    async def on_elicit(ctx, params):
        answer = True
        if answer is None:
            return mcp_types.ElicitResult(action="cancel")
        if answer is False:
            return mcp_types.ElicitResult(action="decline")
        name, field = next(iter(params.requested_schema["properties"].items()))
        if answer is True:
            return mcp_types.ElicitResult(action="accept", content={name: True})
        if answer in field.get("enum", []):
            return mcp_types.ElicitResult(action="accept", content={name: answer})
        return mcp_types.ElicitResult(action="decline")

    return on_elicit
