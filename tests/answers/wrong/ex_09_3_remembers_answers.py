"""Remembers each question's answer and never asks again: the retry the lesson warns about, decided for the person."""

import mcp_types

EXPECT = "called twice through one client and one callback"


def answer(person):
    remembered: dict[str, object] = {}

    async def on_elicit(ctx, params):
        if params.message not in remembered:
            remembered[params.message] = person(params.message)
        said = remembered[params.message]
        if said is None:
            return mcp_types.ElicitResult(action="cancel")
        if said is False:
            return mcp_types.ElicitResult(action="decline")
        name, field = next(iter(params.requested_schema["properties"].items()))
        if said is True and field.get("type") == "boolean":
            return mcp_types.ElicitResult(action="accept", content={name: True})
        if isinstance(said, str) and said in field.get("enum", []):
            return mcp_types.ElicitResult(action="accept", content={name: said})
        return mcp_types.ElicitResult(action="decline")

    return on_elicit
