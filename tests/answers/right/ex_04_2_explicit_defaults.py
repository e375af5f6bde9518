"""Reads each hint with its default written out, and requires an explicit openWorldHint false."""

from course_lib import host


def answer(annotations, trusted):
    if trusted is not True:
        return host.Decision(ask=True, reason="I do not trust this server, so I ask before every call.")
    read_only = annotations.get("readOnlyHint", False)
    open_world = annotations.get("openWorldHint", True)
    if read_only is True and open_world is False:
        return host.Decision(ask=False, reason="A trusted read that stays inside its server.")
    return host.Decision(ask=True, reason="It may change data or reach outside.")
