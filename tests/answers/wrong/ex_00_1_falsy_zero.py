"""Uses `or None`, so a bound of 0 becomes None."""

EXPECT = "bounds(<pick_one>, 'n') should be (0, 0)"


def answer(definition, parameter):
    schema = definition["inputSchema"]["properties"][parameter]
    return schema.get("minimum") or None, schema.get("maximum") or None
