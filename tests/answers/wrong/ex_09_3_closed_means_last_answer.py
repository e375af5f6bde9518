"""A closed dialog falls back to the person's last accepted answer ("they meant the same as last time"):
an earlier answer stands in for one the person did not give."""
import mcp_types

EXPECT = "answer 2 (None): the server received"


def answer(person):
    accepted = []

    async def on_elicit(ctx, params):
        said = person(params.message)
        if said is None:
            return accepted[-1] if accepted else mcp_types.ElicitResult(action="cancel")
        (name, field), = params.requested_schema["properties"].items()
        if said is True and field.get("type") == "boolean":
            accepted.append(mcp_types.ElicitResult(action="accept", content={name: True}))
            return accepted[-1]
        if isinstance(said, str) and said in field.get("enum", []):
            accepted.append(mcp_types.ElicitResult(action="accept", content={name: said}))
            return accepted[-1]
        return mcp_types.ElicitResult(action="decline")

    return on_elicit
