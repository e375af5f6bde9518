"""Checks trust and defaults, but still lets additive changes run."""

from course_lib import host

EXPECT = "to ask first"


def answer(annotations, trusted):
    if not trusted:
        return host.Decision(True, "the server is untrusted")
    hints = host.effective_hints(annotations)
    if hints["openWorldHint"]:
        return host.Decision(True, "it reaches outside")
    if hints["readOnlyHint"] or not hints["destructiveHint"]:
        return host.Decision(False, "reads, or only adds")
    return host.Decision(True, "may destroy data")
