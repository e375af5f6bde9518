"""Hashes each text after Unicode NFKC normalization: a full-width letter (or any compatibility character)
swapped into a description leaves the fingerprint as it was, though the model reads another text."""
import hashlib
import json
import unicodedata

EXPECT = "a letter made full-width"


def _normal(value):
    if isinstance(value, dict):
        return {key: _normal(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_normal(item) for item in value]
    return unicodedata.normalize("NFKC", value) if isinstance(value, str) else value


def fingerprint(tool):
    return hashlib.sha256(json.dumps(_normal(tool), sort_keys=True).encode()).hexdigest()


answer = fingerprint
