"""Asks before every call: safe, but people learn to click yes without reading."""

from course_lib import host

EXPECT = "incidents.get_incident to run without asking"


def answer(annotations, trusted):
    return host.Decision(True, "always ask first, whatever")
