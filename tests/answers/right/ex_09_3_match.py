"""A match statement on the person's answer."""

import mcp_types


def answer(person):
    async def on_elicit(ctx, params):
        said = person(params.message)
        properties = params.requested_schema.get("properties", {})
        match said:
            case None:
                return mcp_types.ElicitResult(action="cancel")
            case False:
                return mcp_types.ElicitResult(action="decline")
            case True if [field.get("type") for field in properties.values()] == ["boolean"]:
                (name,) = properties
                return mcp_types.ElicitResult(action="accept", content={name: True})
            case True:
                return mcp_types.ElicitResult(action="decline")
            case str():
                (name, field), = properties.items()
                if said in field.get("enum", ()):
                    return mcp_types.ElicitResult(action="accept", content={name: said})
                return mcp_types.ElicitResult(action="decline")
        return mcp_types.ElicitResult(action="cancel")

    return on_elicit
