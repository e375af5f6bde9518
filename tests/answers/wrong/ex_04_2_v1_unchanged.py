"""The teammate's v1 as it was: ignores trust and reads absent hints as false."""

from course_lib import host

EXPECT = "drafts.tidy_drafts to ask first"


def answer(annotations, trusted):
    if annotations.get("readOnlyHint"):
        return host.Decision(False, "the tool says it only reads")
    if not annotations.get("destructiveHint"):
        return host.Decision(False, "the tool says it destroys nothing")
    return host.Decision(True, "the tool may destroy data")
