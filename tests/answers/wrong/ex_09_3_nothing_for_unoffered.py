"""Nothing returned for an option the form does not offer."""

import mcp_types

EXPECT = 'gives back an `mcp_types.ElicitResult` for every question'


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
        if answer in field.get("enum", []):
            return mcp_types.ElicitResult(action="accept", content={name: answer})
        return None

    return on_elicit
