"""Whatever the person typed is sent, offered or not."""

import mcp_types

EXPECT = "decline every answer that does not fit the form"


def answer(person):
    async def on_elicit(ctx, params):
        answer = person(params.message)
        if answer is None:
            return mcp_types.ElicitResult(action="cancel")
        if answer is False:
            return mcp_types.ElicitResult(action="decline")
        name, field = next(iter(params.requested_schema["properties"].items()))
        if answer is True:
            return mcp_types.ElicitResult(action="accept", content={name: True})
        return mcp_types.ElicitResult(action="accept", content={name: answer})

    return on_elicit
