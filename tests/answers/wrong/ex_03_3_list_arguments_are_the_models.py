"""Thinks arguments sent as a list are the model's mistake, so an execution error."""

EXPECT = "(g)"


def answer():
    return {"a": "protocol", "b": "protocol", "c": "protocol", "d": "execution",
            "e": "execution", "f": "execution", "g": "execution", "h": "execution"}
