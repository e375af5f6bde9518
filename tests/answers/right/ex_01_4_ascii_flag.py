"""\\w with re.ASCII, length checked apart, \\Z anchor."""

import re

PATTERN = re.compile(r"[\w.-]+\Z", re.ASCII)


def answer(name):
    if not 0 < len(name) < 129:
        return False
    return bool(PATTERN.match(name))
