"""Accepts a yes whatever the form asks: True lands in a field that wants a team."""

import mcp_types

EXPECT = "the person answering True to a form whose options are"


def answer(person):
    async def on_elicit(ctx, params):
        said = person(params.message)
        if said is None:
            return mcp_types.ElicitResult(action="cancel")
        if said is False:
            return mcp_types.ElicitResult(action="decline")
        name, field = next(iter(params.requested_schema["properties"].items()))
        if said is True or said in field.get("enum", []):
            return mcp_types.ElicitResult(action="accept", content={name: said})
        return mcp_types.ElicitResult(action="decline")

    return on_elicit
