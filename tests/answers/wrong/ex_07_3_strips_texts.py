"""Strips the whitespace around every text before hashing: a trailing space or a leading line break is a
change the model reads, and this fingerprint misses it."""
import hashlib
import json


def _stripped(value):
    if isinstance(value, dict):
        return {key: _stripped(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_stripped(item) for item in value]
    return value.strip() if isinstance(value, str) else value


EXPECT = "a space added at the end"


def fingerprint(tool):
    return hashlib.blake2b(json.dumps(_stripped(tool), sort_keys=True).encode(), digest_size=20).hexdigest()


answer = fingerprint
