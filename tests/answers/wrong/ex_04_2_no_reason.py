"""Right decisions, but the person is never told why."""

from course_lib import host

EXPECT = "a reason"


def answer(annotations, trusted):
    hints = host.effective_hints(annotations)
    return host.Decision(not (trusted and hints["readOnlyHint"] and not hints["openWorldHint"]), "")
