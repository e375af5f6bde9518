"""Character set and length, no regex."""

import string

ALLOWED = set(string.ascii_letters + string.digits + "_-.")


def answer(name):
    return 1 <= len(name) <= 128 and all(ch in ALLOWED for ch in name)
