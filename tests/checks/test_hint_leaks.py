"""A check's words say what to change, never the answer: no example they quote is a hint's own sentence."""

from __future__ import annotations

import re

import pytest

from course_lib import checks, hints
from course_lib.workbook import manifest

RUN = 5
"""Words in a row that an example may share with a hint before it counts as the hint's sentence."""


def _runs(text: str) -> set[tuple[str, ...]]:
    words = re.findall(r"[a-z0-9_]+", text.lower())
    return {tuple(words[i:i + RUN]) for i in range(len(words) - RUN + 1)}


def leaks(text: str, answer: str) -> list[str]:
    """The examples quoted in `text` ('...') that share RUN words in a row with `answer`, an exercise's last hint
    (the earlier ones name patterns such as 'Do not use it for ...' that an example may well share)."""
    quoted = re.findall(r"(?<!\w)'([^']+)'(?!\w)", text)
    return [example for example in quoted if _runs(example) & _runs(answer)]


def test_leaks_finds_a_hint_sentence_quoted_as_an_example():
    last = "For example: 'Current local time and UTC offset for one city. Use it when ...'"
    assert leaks("open it with a sentence (e.g. 'Current local time and UTC offset for one city.')", last) == [
        "Current local time and UTC offset for one city."]
    assert leaks("open it with a sentence (e.g. 'The current rate between two currencies.')", last) == []


@pytest.mark.parametrize("exercise", manifest.exercise_ids(), ids=str)
def test_no_rule_quotes_a_hint_as_its_example(exercise):
    """A rule's text is both the exercise's list and its failure line: an example in it that is the last hint's
    sentence lets a stuck learner paste it without climbing the hints (walk4 M1: 1.1 quoted hint 3 of 3)."""
    last = hints.levels(exercise)[-1]
    found = {rule.name: leaks(f"{rule.states} {rule.expected}", last) for rule in checks.registered(exercise).rules}
    assert {name: examples for name, examples in found.items() if examples} == {}
