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
        properties = params.requested_schema["properties"]
        boolean = any(field.get("type") == "boolean" for field in properties.values())
        name = "confirm" if boolean else "team"
        field = properties.get(name, {})
        if answer is True and boolean:
            return mcp_types.ElicitResult(action="accept", content={name: True})
        if answer in field.get("enum", []):
            return mcp_types.ElicitResult(action="accept", content={name: answer})
        return mcp_types.ElicitResult(action="decline")

    return on_elicit
