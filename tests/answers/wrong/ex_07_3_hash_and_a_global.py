"""Python's own hash() of the canonical JSON, mixed with a module global: stable in this process, different in
every other (hash() of a str is randomized per process), and the global keeps it from being rebuilt in a fresh
process, which is how the check would notice. A probe that cannot run must fail the check, never skip it."""
import json

SALT = hash("runbooks")

EXPECT = "a value computed outside it"


def fingerprint(tool):
    canonical = json.dumps(tool, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return f"{hash(canonical) ^ SALT:x}"


answer = fingerprint
