"""An HMAC of the canonical JSON under a key the function makes on its first call: stable in this process
only, so after a restart every approved tool looks changed (and a rug pull would be as loud as nothing)."""
import hashlib
import hmac
import json
import secrets

EXPECT = "in fresh processes"


def fingerprint(tool):
    key = getattr(fingerprint, "key", None)
    if key is None:
        key = fingerprint.key = secrets.token_bytes(16)
    canonical = json.dumps(tool, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hmac.new(key, canonical.encode(), hashlib.sha256).hexdigest()


answer = fingerprint
