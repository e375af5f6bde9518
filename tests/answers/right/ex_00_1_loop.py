"""Walks the properties in a loop, with a helper."""


def _bound(schema, key):
    return schema[key] if key in schema else None


def answer(definition, parameter):
    for name, schema in definition["inputSchema"]["properties"].items():
        if name == parameter:
            return tuple(_bound(schema, key) for key in ("minimum", "maximum"))
    return (None, None)
