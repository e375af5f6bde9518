"""A new default looks harmless."""

EXPECT = "changes a default they rely on"


def answer() -> dict:
    verdicts = {"A": "safe", "B": "breaking", "C": "safe", "D": "breaking", "E": "safe", "F": "breaking", "G": "breaking", "H": "breaking", "I": "safe", "J": "breaking"}
    verdicts["H"] = "safe"
    return verdicts
