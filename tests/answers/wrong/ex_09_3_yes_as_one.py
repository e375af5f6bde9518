"""Treats a yes/no form as a checkbox and sends 1 for yes: the server's lax validation reads it as true."""

import mcp_types

EXPECT = "the callback accepted with {\"confirm\": 1}"


def answer(person):
    async def on_elicit(ctx, params):
        said = person(params.message)
        if said is None:
            return mcp_types.ElicitResult(action="cancel")
        if said is False:
            return mcp_types.ElicitResult(action="decline")
        name, field = next(iter(params.requested_schema["properties"].items()))
        if said is True and field.get("type") == "boolean":
            return mcp_types.ElicitResult(action="accept", content={name: 1})
        if isinstance(said, str) and said in field.get("enum", []):
            return mcp_types.ElicitResult(action="accept", content={name: said})
        return mcp_types.ElicitResult(action="decline")

    return on_elicit
