"""Accepts the first option that starts with what the person typed, so "fac" picks facilities for them."""

import mcp_types

EXPECT = "the person answering 'fac'"


def answer(person):
    async def on_elicit(ctx, params):
        said = person(params.message)
        if said is None:
            return mcp_types.ElicitResult(action="cancel")
        if said is False:
            return mcp_types.ElicitResult(action="decline")
        name, field = next(iter(params.requested_schema["properties"].items()))
        if said is True and field.get("type") == "boolean":
            return mcp_types.ElicitResult(action="accept", content={name: True})
        if isinstance(said, str) and said:
            chosen = next((option for option in field.get("enum", []) if option.startswith(said)), None)
            if chosen is not None:
                return mcp_types.ElicitResult(action="accept", content={name: chosen})
        return mcp_types.ElicitResult(action="decline")

    return on_elicit
