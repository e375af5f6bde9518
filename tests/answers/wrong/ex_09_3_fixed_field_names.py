"""The field names of the first server's forms, written in."""

import mcp_types

EXPECT = 'never assume them'


def answer(person):
    async def on_elicit(ctx, params):
        answer = person(params.message)
        if answer is None:
            return mcp_types.ElicitResult(action="cancel")
        if answer is False:
            return mcp_types.ElicitResult(action="decline")
        name = "confirm" if answer is True else "team"
        field = params.requested_schema["properties"].get(name, {})
        if answer is True:
            return mcp_types.ElicitResult(action="accept", content={name: True})
        if answer in field.get("enum", []):
            return mcp_types.ElicitResult(action="accept", content={name: answer})
        return mcp_types.ElicitResult(action="decline")

    return on_elicit
