"""Passes on yes, no and closed dialogs, but declines every option the person picks: the choice never arrives."""

import mcp_types

EXPECT = "accept with the field set to it"


def answer(person):
    async def on_elicit(ctx, params):
        said = person(params.message)
        if said is None:
            return mcp_types.ElicitResult(action="cancel")
        name, field = next(iter(params.requested_schema["properties"].items()))
        if said is True and field.get("type") == "boolean":
            return mcp_types.ElicitResult(action="accept", content={name: True})
        return mcp_types.ElicitResult(action="decline")

    return on_elicit
