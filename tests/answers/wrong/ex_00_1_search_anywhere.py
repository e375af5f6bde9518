"""Searches the parameter's whole sub-schema for the first `minimum` and `maximum` anywhere, so a bound on an
array's items or on a property of an object parameter is taken for the parameter's own."""

EXPECT = "sizes has no minimum and no maximum"


def _first(schema, key):
    if isinstance(schema, dict):
        if key in schema:
            return schema[key]
        for value in schema.values():
            found = _first(value, key)
            if found is not None:
                return found
    if isinstance(schema, list):
        for value in schema:
            found = _first(value, key)
            if found is not None:
                return found
    return None


def answer(definition, parameter):
    schema = definition["inputSchema"]["properties"][parameter]
    return _first(schema, "minimum"), _first(schema, "maximum")
