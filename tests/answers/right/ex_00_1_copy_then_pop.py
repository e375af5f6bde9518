"""Copies the parameter's schema with .copy() and pops the bounds off the copy (red team 9, L1: the lent inner
dict had no .copy() across the grading boundary)."""


def answer(definition, parameter):
    schema = definition["inputSchema"]["properties"][parameter].copy()
    return schema.pop("minimum", None), schema.pop("maximum", None)
