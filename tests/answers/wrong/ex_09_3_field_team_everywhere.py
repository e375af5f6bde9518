"""An unseen answer (unseen11 wrongB, M4): right in every way but one, it accepts with the field name of the
lesson's example, "team", on every form. Its message used to blame the yes/no rule, quoting the server's error
cut before the field name; the rule it breaks is taking the field's name from params.requested_schema."""

import mcp_types

EXPECT = "found the callback accepted with {\"team\": true}, a field the form does not have (its one field is 'confirm')"
NOT_SAID = ("when the person said yes",)

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

    async def decide(ctx, params):
        said = person(params.message)
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
        return mcp_types.ElicitResult(action="accept", content={"team": said}) if ok else no

    return decide
