"""Forgets (e)."""

EXPECT = "an answer for every failure"


def answer():
    return {"a": "protocol", "b": "protocol", "c": "protocol", "d": "execution",
            "f": "execution", "g": "protocol", "h": "execution"}
