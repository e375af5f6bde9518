"""JSON Schema read by meaning, as checkers need it: `$ref` resolved, unions walked, exclusive bounds made inclusive.

An Enum class (a `$ref` into `$defs`) is as good as a `Literal`, `gt=0` on an integer is `minimum: 1`, and
property order never matters: a checker asks these helpers, never one spelling of a schema.
"""

from __future__ import annotations

from typing import Any


def resolve(schema: dict, root: dict) -> dict:
    """`schema` with `$ref` replaced by its `$defs` target (siblings such as `default` kept), recursively at the top."""
    seen = 0
    while isinstance(schema, dict) and "$ref" in schema and seen < 10:
        target = schema["$ref"].rsplit("/", 1)[-1]
        rest = {key: value for key, value in schema.items() if key != "$ref"}
        schema = {**root.get("$defs", {}).get(target, {}), **rest}
        seen += 1
    if isinstance(schema, dict) and len(schema.get("allOf", [])) == 1:  # older pydantic: allOf: [{$ref}]
        inner = resolve(schema["allOf"][0], root)
        schema = {**inner, **{key: value for key, value in schema.items() if key != "allOf"}}
    return schema


def param(tool: dict, name: str) -> dict:
    """One parameter's schema in a listed tool, `$ref` resolved; {} when absent."""
    schema = tool.get("inputSchema", {})
    return resolve(schema.get("properties", {}).get(name, {}), schema)


def types(schema: dict) -> set[str]:
    """The JSON types a (resolved) schema allows, through anyOf/oneOf."""
    found = schema.get("type")
    out = set(found if isinstance(found, list) else [found] if found else [])
    for option in schema.get("anyOf", []) + schema.get("oneOf", []):
        out |= types(option)
    if "enum" in schema and not out:
        out |= {type(value).__name__.replace("str", "string") for value in schema["enum"]}
    return out


def int_bounds(schema: dict) -> tuple[Any, Any]:
    """(lowest, highest) integer a schema allows: `exclusiveMinimum: 0` on an integer counts as `minimum: 1`."""
    low, high = schema.get("minimum"), schema.get("maximum")
    if isinstance(schema.get("exclusiveMinimum"), (int, float)):
        candidate = int(schema["exclusiveMinimum"]) + 1
        low = candidate if low is None else max(low, candidate)
    if isinstance(schema.get("exclusiveMaximum"), (int, float)):
        value = schema["exclusiveMaximum"]
        candidate = int(value) - 1 if float(value).is_integer() else int(value)
        high = candidate if high is None else min(high, candidate)
    return low, high


def choices(schema: dict) -> list | None:
    """The closed set of values a (resolved) schema allows (enum, const, or a union of them); None if open."""
    if "enum" in schema:
        return list(schema["enum"])
    if "const" in schema:
        return [schema["const"]]
    options = schema.get("anyOf", []) + schema.get("oneOf", [])
    if options:
        found = [choices(option) for option in options]
        if all(item is not None for item in found):
            return [value for item in found for value in item]
    return None
