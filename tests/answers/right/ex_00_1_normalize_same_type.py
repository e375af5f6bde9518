"""Normalises the definition's keys with a rebuild that keeps each container's type, `type(value)(pairs)`, as
copy-like helpers and JSON normalisers are written (red team 10, L1': the dict lent across the grading boundary
could not be rebuilt so, and this right answer failed naming the boundary's internal class)."""


def _normalized(value):
    if isinstance(value, dict):
        return type(value)((str(key), _normalized(item)) for key, item in value.items())
    if isinstance(value, list):
        return type(value)(_normalized(item) for item in value)
    return value


def answer(definition, parameter):
    clean = _normalized(definition)
    schema = clean["inputSchema"]["properties"][parameter]
    return schema.get("minimum"), schema.get("maximum")
