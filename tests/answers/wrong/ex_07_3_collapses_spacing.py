"""Hashes the whole definition with its whitespace collapsed: a doubled space or a new line goes unnoticed."""

import hashlib
import json

EXPECT = "a space doubled"


def answer(tool):
    text = " ".join(json.dumps(tool, sort_keys=True, ensure_ascii=False).replace("\\n", " ").split())
    return hashlib.sha256(text.encode()).hexdigest()
