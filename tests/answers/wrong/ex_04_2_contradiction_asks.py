"""Treats a trusted tool that says both readOnlyHint true and destructiveHint true as suspect and asks; the
schema reads destructiveHint only when readOnlyHint is false, so it is a read that stays inside and runs."""

from course_lib import host

EXPECT = "\"destructiveHint\": true, \"idempotentHint\": true, \"openWorldHint\": false} to run without asking"


def answer(annotations, trusted):
    hints = host.effective_hints(annotations)
    claims_both = annotations.get("readOnlyHint") is True and annotations.get("destructiveHint") is True
    if not trusted:
        return host.Decision(True, "an untrusted server's hints mean nothing")
    if claims_both:
        return host.Decision(True, "its hints contradict each other, so confirm first")
    if hints["readOnlyHint"] and not hints["openWorldHint"]:
        return host.Decision(False, "a trusted read that stays on its server")
    return host.Decision(True, "a trusted call that changes data or reaches out")
