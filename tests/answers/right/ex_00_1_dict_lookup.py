"""Reads the property with .get on every level."""


def answer(definition, parameter):
    prop = definition.get("inputSchema", {}).get("properties", {}).get(parameter, {})
    return (prop.get("minimum"), prop.get("maximum"))
