"""Wrong: returns the raw digest (bytes), not a str."""
import hashlib
import json


def fingerprint(tool):
    return hashlib.sha256(json.dumps(tool, sort_keys=True).encode()).digest()


answer = fingerprint
EXPECT = "return a str"
