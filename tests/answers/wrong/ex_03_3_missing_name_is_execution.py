"""Thinks a tools/call without a name is a failed tool call, so an execution error."""

EXPECT = "(c)"


def answer():
    return {"a": "protocol", "b": "protocol", "c": "execution", "d": "execution",
            "e": "execution", "f": "execution", "g": "protocol", "h": "execution"}
