"""A callable object with an async __call__ and a helper for the form's field."""

from mcp_types import ElicitResult


def only_field(schema: dict) -> tuple[str, dict]:
    [(name, field)] = schema["properties"].items()
    return name, field


class Host:
    def __init__(self, person):
        self.person = person

    async def __call__(self, ctx, params) -> ElicitResult:
        decision = self.person(params.message)
        if decision is None:
            return ElicitResult(action="cancel")
        if decision is False:
            return ElicitResult(action="decline")
        name, field = only_field(params.requested_schema)
        if (decision is True and field.get("type") == "boolean") or (
                isinstance(decision, str) and decision in (field.get("enum") or [])):
            return ElicitResult(action="accept", content={name: decision})
        return ElicitResult(action="decline")


def answer(person):
    return Host(person)
