"""Lower-case letters and capitalised verdicts: the check ignores case."""


def answer() -> dict[str, str]:
    return {"a": "Safe", "b": "BREAKING", "c": "safe", "d": "Breaking", "e": "safe",
            "f": "breaking", "g": "breaking", "h": "breaking", "i": "Safe", "j": "breaking"}
