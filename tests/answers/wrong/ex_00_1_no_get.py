"""Indexes the schema directly, so a parameter without a bound crashes instead of giving None."""

EXPECT = "it raised KeyError"


def answer(definition, parameter):
    schema = definition["inputSchema"]["properties"][parameter]
    return schema["minimum"], schema["maximum"]
