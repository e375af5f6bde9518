"""Right: the canonical JSON itself is the fingerprint (long, but exact)."""
import json


def fingerprint(tool):
    return json.dumps(tool, sort_keys=True)


answer = fingerprint
