"""The right decisions, each with a rule number for a reason: 'rule 3' is not a reason a person can read."""

from course_lib import host

EXPECT = "a reason of at least three words"


def answer(annotations, trusted):
    if not trusted:
        return host.Decision(True, "rule 1")
    hints = host.effective_hints(annotations)
    if hints["readOnlyHint"] and not hints["openWorldHint"]:
        return host.Decision(False, "rule 2")
    return host.Decision(True, "rule 3")
