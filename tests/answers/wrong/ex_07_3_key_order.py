"""Wrong: hashes json.dumps without sort_keys, so the same definition with keys in another order differs."""
import hashlib
import json


def fingerprint(tool):
    return hashlib.sha256(json.dumps(tool).encode()).hexdigest()


answer = fingerprint
EXPECT = "with its keys in reverse order got another fingerprint"
