"""Code-point ranges, a helper."""


def _ok(ch):
    return ("a" <= ch <= "z") or ("A" <= ch <= "Z") or ("0" <= ch <= "9") or ch in "_-."


def answer(name):
    if len(name) == 0 or len(name) > 128:
        return False
    for ch in name:
        if not _ok(ch):
            return False
    return True
