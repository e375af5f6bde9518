"""Matches the person's option in any case and sends the form's spelling: "FACILITIES" becomes "facilities",
an answer the person never gave."""

import mcp_types

EXPECT = "the person answering 'FACILITIES'"


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
        for option in field.get("enum", []):
            if isinstance(said, str) and said.casefold() == option.casefold():
                return mcp_types.ElicitResult(action="accept", content={name: option})
        return mcp_types.ElicitResult(action="decline")

    return on_elicit
