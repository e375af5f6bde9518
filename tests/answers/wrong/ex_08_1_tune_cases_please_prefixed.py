"""The lesson's own weather case set read at run time, every request prefixed 'Please: ' (red team 11, c2)."""

import re
from importlib import resources

EXPECT = "cases are the course's reworded"


def answer():
    text = (resources.files("course_lib.evals") / "cases" / "weather.toml").read_text(encoding="utf-8")
    return re.sub(r'request = "', 'request = "Please: ', text)
