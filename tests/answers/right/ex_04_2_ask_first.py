"""Starts from 'ask', and lets only one case run."""

from course_lib import host


def answer(annotations, trusted):
    decision = host.Decision(True, "asking: the call may change something or reach outside")
    if not trusted:
        decision = host.Decision(True, "asking: an untrusted server's hints count for nothing")
    else:
        hints = host.effective_hints(annotations)
        if hints["readOnlyHint"] and hints["openWorldHint"] is False:
            decision = host.Decision(False, "only reads, inside a trusted server", retry=True)
    return decision
