r"""Uses \w, which also matches non-ASCII letters, and forgets the 128-character limit."""

import re

EXPECT = "should be False"


def answer(name):
    return re.fullmatch(r"[\w.-]+", name) is not None
