"""Right verdicts, keyed "a" to "j": the text names the letters "A" to "J" and compares the keys exactly."""

EXPECT = "no verdict for A, B, C, D, E, F, G, H, I, J"


def answer() -> dict[str, str]:
    return {"a": "safe", "b": "breaking", "c": "safe", "d": "breaking", "e": "safe",
            "f": "breaking", "g": "breaking", "h": "breaking", "i": "safe", "j": "breaking"}
