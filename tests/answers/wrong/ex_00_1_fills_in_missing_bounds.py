"""Fills in the bounds a parameter lacks with setdefault: right answers, but the caller's definition changes."""

EXPECT = "bounds() reads the definition and leaves it as it was"


def answer(definition, parameter):
    schema = definition["inputSchema"]["properties"][parameter]
    schema.setdefault("minimum", None)
    schema.setdefault("maximum", None)
    return schema["minimum"], schema["maximum"]
