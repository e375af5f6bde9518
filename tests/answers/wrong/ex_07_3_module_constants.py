"""sha256 of canonical JSON, its settings in module constants: values computed outside the function, which
nothing sends to a fresh process, so the check cannot compute the fingerprint again after a restart."""

import hashlib
import json

EXPECT = "a value computed outside it"

SEPARATORS = (",", ":")
ALGORITHM = "sha256"


def fingerprint(tool):
    canonical = json.dumps(tool, sort_keys=True, separators=SEPARATORS, ensure_ascii=False)
    return hashlib.new(ALGORITHM, canonical.encode("utf-8")).hexdigest()


answer = fingerprint
