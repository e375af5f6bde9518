"""Any change to the result is called breaking."""

EXPECT = "leaves out a field v1 always returned"


def answer() -> dict:
    verdicts = {"A": "safe", "B": "breaking", "C": "safe", "D": "breaking", "E": "safe", "F": "breaking", "G": "breaking", "H": "breaking", "I": "safe", "J": "breaking"}
    verdicts["E"] = "breaking"
    return verdicts
