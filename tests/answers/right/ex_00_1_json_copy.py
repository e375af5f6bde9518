"""Reads a copy of its own made with json, never the caller's object (red team 9, L1: json.dumps failed on the
definition lent by reference across the grading boundary)."""

import json


def answer(definition, parameter):
    data = json.loads(json.dumps(definition))
    schema = data["inputSchema"]["properties"][parameter]
    return schema.get("minimum"), schema.get("maximum")
