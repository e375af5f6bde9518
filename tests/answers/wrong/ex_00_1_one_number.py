"""Returns only the maximum, not the pair."""

EXPECT = 'return a pair'

def answer(definition: dict, parameter: str):
    return definition["inputSchema"]["properties"][parameter].get("maximum")
