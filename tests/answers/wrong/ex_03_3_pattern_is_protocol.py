"""Thinks a pattern mismatch is invalid params (-32602), so a protocol error."""

EXPECT = "(h)"


def answer():
    return {"a": "protocol", "b": "protocol", "c": "protocol", "d": "execution",
            "e": "execution", "f": "execution", "g": "protocol", "h": "protocol"}
