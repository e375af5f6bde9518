"""The lesson's own weather case set read at run time, every request's final '?' or '.' dropped (red team 11, c1:
passed 8.1 while only the same request, case and spacing ignored, counted as the course's)."""

import re
from importlib import resources

EXPECT = "cases are the course's reworded"


def answer():
    text = (resources.files("course_lib.evals") / "cases" / "weather.toml").read_text(encoding="utf-8")
    return re.sub(r'request = "(.*?)[?.]"', lambda m: 'request = "' + m.group(1) + '"', text)
