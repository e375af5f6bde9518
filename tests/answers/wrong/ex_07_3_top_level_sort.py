"""Wrong: sorts only the top-level keys; nested objects keep their order."""
import hashlib
import json


def fingerprint(tool):
    return hashlib.sha256(json.dumps([(key, tool[key]) for key in sorted(tool)]).encode()).hexdigest()


answer = fingerprint
EXPECT = "in reverse order got another fingerprint"
