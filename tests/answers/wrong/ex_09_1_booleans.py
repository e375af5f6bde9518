"""True/False instead of the two words."""

EXPECT = "\"breaking\" or \"safe\""


def answer() -> dict:
    verdicts = {"A": "safe", "B": "breaking", "C": "safe", "D": "breaking", "E": "safe", "F": "breaking", "G": "breaking", "H": "breaking", "I": "safe", "J": "breaking"}
    verdicts = {key: value == "breaking" for key, value in verdicts.items()}
    return verdicts
