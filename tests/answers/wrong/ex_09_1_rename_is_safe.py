"""A rename looks like a cosmetic change."""

EXPECT = "call a removed or renamed tool breaking"


def answer() -> dict:
    verdicts = {"A": "safe", "B": "breaking", "C": "safe", "D": "breaking", "E": "safe", "F": "breaking", "G": "breaking", "H": "breaking", "I": "safe", "J": "breaking"}
    verdicts["J"] = "safe"
    return verdicts
