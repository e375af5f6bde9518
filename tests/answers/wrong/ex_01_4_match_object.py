"""Returns the match object (or None) instead of a bool."""

import re

EXPECT = 'return a bool'

def answer(name: str):
    return re.fullmatch(r"[A-Za-z0-9_.-]{1,128}", name)
