"""Returns a list instead of a tuple, with explicit key tests."""


def answer(definition, parameter):
    schema = definition["inputSchema"]["properties"][parameter]
    low = schema["minimum"] if "minimum" in schema else None
    high = schema["maximum"] if "maximum" in schema else None
    return [low, high]
