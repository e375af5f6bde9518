"""Capitalised and padded verdicts: the text says their case and surrounding spaces do not matter."""


def answer() -> dict[str, str]:
    return {"A": "Safe", "B": "BREAKING", "C": " safe", "D": "Breaking ", "E": "safe",
            "F": "breaking", "G": "breaking", "H": "breaking", "I": "Safe", "J": "breaking"}
