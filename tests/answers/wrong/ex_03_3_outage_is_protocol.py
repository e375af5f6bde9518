"""Treats a server-side outage as a protocol error because the model could not have avoided it."""

EXPECT = "'execution' for (f)"


def answer():
    return {"a": "protocol", "b": "protocol", "c": "protocol", "d": "execution",
            "e": "execution", "f": "protocol", "g": "protocol", "h": "execution"}
