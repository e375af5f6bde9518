"""Guards that it was given a dict, as the exercise's signature says (red team 9, L1: the definition lent by
reference across the grading boundary was not one, and this right answer failed)."""


def answer(definition, parameter):
    if not isinstance(definition, dict):
        raise TypeError("definition must be a dict (a wire-form tool definition)")
    schema = definition["inputSchema"]["properties"][parameter]
    return schema.get("minimum"), schema.get("maximum")
