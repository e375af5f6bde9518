"""Runs any trusted tool that stays inside, including ones that change data."""

from course_lib import host

EXPECT = "to ask first"


def answer(annotations, trusted):
    if not trusted:
        return host.Decision(True, "the server is untrusted")
    hints = host.effective_hints(annotations)
    if not hints["openWorldHint"]:
        return host.Decision(False, "stays inside the server")
    return host.Decision(True, "it reaches outside")
