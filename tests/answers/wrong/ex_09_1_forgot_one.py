"""One proposal left out."""

EXPECT = "found no verdict for J"


def answer() -> dict:
    verdicts = {"A": "safe", "B": "breaking", "C": "safe", "D": "breaking", "E": "safe", "F": "breaking", "G": "breaking", "H": "breaking", "I": "safe", "J": "breaking"}
    del verdicts["J"]
    return verdicts
