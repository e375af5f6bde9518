"""Tuned to the annotations the five demo servers send: an explicit readOnlyHint false with openWorldHint false runs."""

from course_lib import host

EXPECT = "ask"


def answer(annotations, trusted):
    if not trusted:
        return host.Decision(True, "the server is untrusted")
    if annotations.get("openWorldHint") is False and annotations.get("destructiveHint") is not True \
            and annotations.get("idempotentHint") is not True and "title" not in annotations:
        return host.Decision(False, "it looks harmless")
    hints = host.effective_hints(annotations)
    if hints["readOnlyHint"] and not hints["openWorldHint"]:
        return host.Decision(False, "it reads inside")
    return host.Decision(True, "anything else asks")
