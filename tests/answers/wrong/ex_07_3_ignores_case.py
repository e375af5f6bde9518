"""Hashes the whole definition, lower-cased first: a change of case in what the model reads goes unnoticed."""

import hashlib
import json

EXPECT = "a letter's case changed"


def answer(tool):
    return hashlib.sha256(json.dumps(tool, sort_keys=True).lower().encode()).hexdigest()
