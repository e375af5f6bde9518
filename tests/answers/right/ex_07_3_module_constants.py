"""sha256 of canonical JSON, its settings in module constants (the function cannot be sent to a fresh process)."""
import hashlib
import json

SEPARATORS = (",", ":")
ALGORITHM = "sha256"


def fingerprint(tool):
    canonical = json.dumps(tool, sort_keys=True, separators=SEPARATORS, ensure_ascii=False)
    return hashlib.new(ALGORITHM, canonical.encode("utf-8")).hexdigest()


answer = fingerprint
