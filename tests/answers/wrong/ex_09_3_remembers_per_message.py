"""An unseen answer (unseen11 wrongA, M2): remembers the person's answer per question text and gives it again;
it handles None and False rightly. Its message used to add that cancel and decline were broken, for the
remembered True it replayed; the one rule it breaks is asking every time."""

import mcp_types

EXPECT = "found the person was asked 1 time(s)"
NOT_SAID = ("answer `cancel`", "answer `decline`")

def _single_field(schema):
    if not isinstance(schema, dict):
        schema = schema.model_dump(by_alias=True, exclude_none=True)
    props = schema.get("properties") or {}
    if len(props) != 1:
        return None, None
    return next(iter(props.items()))


def _options(spec):
    if "enum" in spec:
        return list(spec["enum"])
    return [c.get("const") for c in spec.get("oneOf", spec.get("anyOf", [])) if "const" in c]


def answer(person):
    no = mcp_types.ElicitResult(action="decline")

    asked = {}

    async def decide(ctx, params):
        if params.message not in asked:
            asked[params.message] = person(params.message)
        said = asked[params.message]
        if said is None:
            return mcp_types.ElicitResult(action="cancel")
        if said is False:
            return no
        field, spec = _single_field(params.requested_schema)
        if field is None:
            return no
        if said is True:
            ok = spec.get("type") == "boolean"
        else:
            ok = isinstance(said, str) and said in _options(spec)
        return mcp_types.ElicitResult(action="accept", content={field: said}) if ok else no

    return decide
