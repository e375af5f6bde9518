"""Reads the strings "true" and "yes" as a yes: the person's text is turned into a decision they did not make."""

import mcp_types

EXPECT = "the person answering 'true' to a yes/no form"


def answer(person):
    async def on_elicit(ctx, params):
        said = person(params.message)
        if isinstance(said, str) and said.lower() in ("true", "yes"):
            said = True
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
