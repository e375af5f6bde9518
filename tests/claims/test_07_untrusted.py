"""Lesson 07's claim about Unicode and tiktoken: variation selectors are not format characters, and a tokenizer
reads every one."""

from __future__ import annotations

import unicodedata

from course_lib import tokens
from claims_ledger import claim

VARIATION_SELECTORS = [*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)]
TAGS = range(0xE0000, 0xE0080)


@claim("unicode-variation-selectors-are-mn-and-tokenized")
def test_variation_selectors_are_category_mn_and_each_one_costs_tokens():
    assert len(VARIATION_SELECTORS) == 256
    assert {unicodedata.category(chr(code)) for code in VARIATION_SELECTORS} == {"Mn"}
    assert {unicodedata.category(chr(code)) for code in TAGS if unicodedata.name(chr(code), "")} == {"Cf"}
    visible = "Looks good to me."
    for code in (0xFE00, 0xFE0F, 0xE0100, 0xE01EF):
        for encoding in tokens.ENCODINGS:
            assert tokens.count(visible + chr(code) * 10, encoding) > tokens.count(visible, encoding)
