"""Uses a word that is neither kind."""

EXPECT = "found 'validation'"


def answer():
    return {"a": "protocol", "b": "protocol", "c": "protocol", "d": "validation",
            "e": "execution", "f": "execution", "g": "protocol", "h": "execution"}
