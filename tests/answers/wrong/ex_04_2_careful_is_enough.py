"""Delegates to host.careful, which also runs trusted reads that reach outside."""

from course_lib import host

EXPECT = "weather.get_daily_forecast to ask first"


def answer(annotations, trusted):
    return host.careful(annotations, trusted)
