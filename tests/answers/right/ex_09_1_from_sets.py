"""Built from the set of breaking letters."""

BREAKING = set("BDFGHJ")


def answer() -> dict[str, str]:
    return {letter: "breaking" if letter in BREAKING else "safe" for letter in "ABCDEFGHIJ"}
