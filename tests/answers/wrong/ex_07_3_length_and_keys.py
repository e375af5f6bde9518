"""A fingerprint of the keys and the length of the canonical JSON: every edit that adds or removes a character
changes it, a letter replaced by another does not."""

import json


def _keys(value, prefix=""):
    if isinstance(value, dict):
        return [k for key, item in sorted(value.items()) for k in [prefix + key, *_keys(item, prefix + key + ".")]]
    if isinstance(value, list):
        return [k for item in value for k in _keys(item, prefix)]
    return []


EXPECT = "a letter replaced"


def answer(tool):
    return f"{len(json.dumps(tool, sort_keys=True))}:{'|'.join(_keys(tool))}"
