"""Forgets (e)."""

EXPECT = "found no key 'e'"


def answer():
    return {"a": "protocol", "b": "protocol", "c": "protocol", "d": "execution",
            "f": "execution", "g": "protocol", "h": "execution"}
