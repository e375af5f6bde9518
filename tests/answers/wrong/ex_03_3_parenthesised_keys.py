"""Right kinds, but keyed "(a)" to "(h)" as the list prints them, where the text asks for the letters "a" to "h"."""

EXPECT = "keys exactly 'a' to 'h'"


def answer():
    kinds = {"a": "protocol", "b": "protocol", "c": "protocol", "d": "execution", "e": "execution",
             "f": "execution", "g": "protocol", "h": "execution"}
    return {f"({letter})": kind for letter, kind in kinds.items()}
