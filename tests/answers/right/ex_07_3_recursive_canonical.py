"""Its own canonical form, built recursively (sorted keys, lists in order), hashed with SHA-1."""

import hashlib


def _canonical(value) -> str:
    if isinstance(value, dict):
        return "{" + ",".join(f"{key!r}:{_canonical(value[key])}" for key in sorted(value)) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_canonical(item) for item in value) + "]"
    return repr(value)


def answer(tool: dict) -> str:
    return hashlib.sha1(_canonical(tool).encode("utf-8")).hexdigest()
