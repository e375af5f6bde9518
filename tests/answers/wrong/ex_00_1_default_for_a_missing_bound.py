"""Gives the parameter's default where a bound is missing: a default is no bound."""

EXPECT = "free has no minimum and no maximum"


def answer(definition, parameter):
    schema = definition["inputSchema"]["properties"][parameter]
    default = schema.get("default")
    return schema.get("minimum", default), schema.get("maximum", default)
