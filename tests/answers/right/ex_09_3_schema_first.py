"""Reads the form first (its one field, its type, its options), then asks the person once."""

import mcp_types


def answer(person):
    async def on_elicit(ctx, params):
        [(name, field)] = list(params.requested_schema.get("properties", {}).items())
        options = field.get("enum")
        said = person(params.message)
        if said is None:
            return mcp_types.ElicitResult(action="cancel")
        if said is True and field.get("type") == "boolean":
            return mcp_types.ElicitResult(action="accept", content={name: True})
        if type(said) is str and options is not None and said in options:
            return mcp_types.ElicitResult(action="accept", content={name: said})
        return mcp_types.ElicitResult(action="decline")

    return on_elicit
