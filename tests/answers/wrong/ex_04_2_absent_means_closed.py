"""Fixes trust, but reads an absent openWorldHint as false (closed) instead of its default, true."""

from course_lib import host

EXPECT = "an absent openWorldHint means true"


def answer(annotations, trusted):
    if not trusted:
        return host.Decision(True, "the server is untrusted")
    if annotations.get("readOnlyHint") and not annotations.get("openWorldHint"):
        return host.Decision(False, "reads inside the server")
    return host.Decision(True, "changes data or reaches outside")
