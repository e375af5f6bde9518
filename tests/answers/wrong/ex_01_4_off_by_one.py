"""Allows only up to 127 characters."""

import re

EXPECT = "(128 characters)) should be True"


def answer(name):
    return re.fullmatch(r"[A-Za-z0-9_.-]{1,127}", name) is not None
