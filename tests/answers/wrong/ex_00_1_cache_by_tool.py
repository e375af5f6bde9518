"""Remembers each answer by (tool name, parameter), so another definition of a same-named tool gets old bounds."""

EXPECT = "bounds(<resize>, 'width') should be (5, 50)"

_SEEN = {}


def answer(definition, parameter):
    key = (definition["name"], parameter)
    if key not in _SEEN:
        schema = definition["inputSchema"]["properties"][parameter]
        _SEEN[key] = (schema.get("minimum"), schema.get("maximum"))
    return _SEEN[key]
