"""Sentences read by role: does a sentence point *to* another tool, or only mention it?

"Do not use it for one ticket; call get_ticket" points to get_ticket; "do not bother calling get_ticket"
names it too, but as something to avoid. A checker asks `points_to`, never whether the name appears.
"""

from __future__ import annotations

import re

from course_lib import review

_SEGMENT = re.compile(r"\s*(?:[;:,]|\s[-–—]\s|\bbut\b|\bthough\b)\s*", re.I)
_NEGATION_BEFORE = re.compile(r"\b(?:not|never|no|nor|without|avoid|avoiding|instead of|rather than|except|bother|"
                              r"skip|don't|doesn't|dont|isn't|won't|can't|cannot|neither)\b|n't\b", re.I)
_NEGATION_AFTER = re.compile(r"^\W*(?:\w+\W+){0,1}?(?:is not|isn't|does not|doesn't|will not|won't|cannot|can't|"
                             r"is never|never|is no)\b", re.I)
WINDOW = 4
"""Words before a mention that can negate it ("do not bother calling get_ticket")."""


def _pointing(segment: str, tool: str) -> bool:
    """Whether one mention of `tool` in a clause segment is offered as what to use (not negated around it)."""
    for match in re.finditer(rf"(?<![\w.]){re.escape(tool)}(?![\w])", segment):
        before = " ".join(re.findall(r"[\w']+", segment[:match.start()])[-WINDOW:])
        after = segment[match.end():]
        if not _NEGATION_BEFORE.search(before) and not _NEGATION_AFTER.search(after):
            return True
    return False


def points_to(sentence: str, tool: str) -> bool:
    """Whether `sentence` names `tool` as the one to use: a mention no negation around it turns away."""
    return any(_pointing(segment, tool) for segment in _SEGMENT.split(sentence) if tool in segment)


def limits_and_points_to(description: str, tool: str) -> bool:
    """Whether one sentence of `description` limits the tool's use and points to `tool` instead."""
    return any(review.says_when_not(sentence) and points_to(sentence, tool)
               for sentence in review.sentences(description))
