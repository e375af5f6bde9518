"""The right decisions, one sentence for every one of them: it says nothing about why this call asks."""

from course_lib import host

EXPECT = "each outcome its own reason"


def answer(annotations, trusted):
    hints = host.effective_hints(annotations)
    ask = not (trusted and hints["readOnlyHint"] and not hints["openWorldHint"])
    return host.Decision(ask, "Decided by the team's confirmation policy.")
