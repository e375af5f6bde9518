"""Takes the parameter out of the definition with pop, so asking about it again finds nothing."""

EXPECT = "bounds(<resize>, 'width') should be (1, 10)"


def answer(definition, parameter):
    schema = definition["inputSchema"]["properties"].pop(parameter, {})
    return schema.get("minimum"), schema.get("maximum")
