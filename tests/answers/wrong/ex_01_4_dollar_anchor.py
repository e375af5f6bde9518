"""re.match with $: a trailing newline slips through."""

import re

EXPECT = "is_valid_tool_name('name\\n') should be False"


def answer(name):
    return re.match(r"^[A-Za-z0-9_.-]{1,128}$", name) is not None
