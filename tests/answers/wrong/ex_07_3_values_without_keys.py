"""Wrong: hashes each top-level value in canonical JSON but sorts them and drops their keys, so the title and the
description swapped (what the person approves and what the model reads) give the same fingerprint; a mutant of the
solution that survived the checker before it swapped them (mutation run of 2026-12-07)."""
import hashlib
import json


def fingerprint(tool: dict) -> str:
    parts = sorted(json.dumps(value, sort_keys=True) for value in tool.values())
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


answer = fingerprint

EXPECT = "the title and the description swapped"
