"""Wrong: a canonical form, but only the first two hex digits of its SHA-256 kept: 256 fingerprints in all, so
different definitions share one (a rug pull passes one time in 256); a mutant of the solution that survived the
checker before it required every different definition it makes to get its own fingerprint (mutation run of
2026-12-07). The check's definitions carry a random mark (red team 8), so where two of them first meet varies: an
edit's, or the final distinctness sweep's; none meeting among its ~70 definitions has a chance of about 1 in 10,000."""
import hashlib
import json


def fingerprint(tool: dict) -> str:
    canonical = json.dumps(tool, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:2]


answer = fingerprint

EXPECT = "the same fingerprint"
