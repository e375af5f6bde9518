"""The common misreading: arguments that break the schema are -32602 Invalid params, so protocol errors."""

EXPECT = "'execution' for (d)"


def answer():
    return {"a": "protocol", "b": "protocol", "c": "protocol", "d": "protocol",
            "e": "execution", "f": "execution", "g": "protocol", "h": "protocol"}
