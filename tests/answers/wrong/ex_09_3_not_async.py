"""A plain function: the SDK awaits the callback."""

import mcp_types

EXPECT = "use `async def`"


def answer(person):
    def on_elicit(ctx, params):
        answer = person(params.message)
        if answer is None:
            return mcp_types.ElicitResult(action="cancel")
        if answer is False:
            return mcp_types.ElicitResult(action="decline")
        name = next(iter(params.requested_schema["properties"]))
        return mcp_types.ElicitResult(action="accept", content={name: answer})

    return on_elicit
