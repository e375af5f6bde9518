"""A wider enum feels like more freedom, so D looks safe."""

EXPECT = "judge a change to a result by what v1 clients read"


def answer() -> dict:
    verdicts = {"A": "safe", "B": "breaking", "C": "safe", "D": "breaking", "E": "safe", "F": "breaking", "G": "breaking", "H": "breaking", "I": "safe", "J": "breaking"}
    verdicts["D"] = "safe"
    return verdicts
