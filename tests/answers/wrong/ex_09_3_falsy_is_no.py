"""`not answer` lumps a closed dialog in with a no."""

import mcp_types

EXPECT = 'answer `cancel` when the person closed the dialog'


def answer(person):
    async def on_elicit(ctx, params):
        answer = person(params.message)
        if not answer:
            return mcp_types.ElicitResult(action="decline")
        name, field = next(iter(params.requested_schema["properties"].items()))
        if answer is True:
            return mcp_types.ElicitResult(action="accept", content={name: True})
        if answer in field.get("enum", []):
            return mcp_types.ElicitResult(action="accept", content={name: answer})
        return mcp_types.ElicitResult(action="decline")

    return on_elicit
