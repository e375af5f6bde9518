"""sha256 of canonical JSON, its settings in module constants: the function cannot be sent to a fresh process, so
the check cannot see whether it is stable after a restart. It used to pass unprobed, the gap issue 29's
hash()-plus-a-global cheat went through (ex_07_3_hash_and_a_global); a probe that cannot run now fails the check
with its reason: compute the settings inside the function."""
import hashlib
import json

EXPECT = "a value computed outside it"

SEPARATORS = (",", ":")
ALGORITHM = "sha256"


def fingerprint(tool):
    canonical = json.dumps(tool, sort_keys=True, separators=SEPARATORS, ensure_ascii=False)
    return hashlib.new(ALGORITHM, canonical.encode("utf-8")).hexdigest()


answer = fingerprint
