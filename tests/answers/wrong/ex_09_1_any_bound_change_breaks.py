"""Every change to a bound is called breaking."""

EXPECT = "judge a change to an argument by what v1 clients send"


def answer() -> dict:
    verdicts = {"A": "safe", "B": "breaking", "C": "safe", "D": "breaking", "E": "safe", "F": "breaking", "G": "breaking", "H": "breaking", "I": "safe", "J": "breaking"}
    verdicts["A"] = "breaking"
    return verdicts
