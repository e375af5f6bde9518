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


_REFERS_BACK = re.compile(r"(?:\b(?:that|this|those|these|them|it|one|tool|so|not|cannot)|n't)\W*$", re.I)
"""How a limit ends when what it limits is said elsewhere in its sentence ("this tool is not for that", "not this
one", "it cannot")."""
_NOT_THIS_ONE = re.compile(r"^\W*not\s+(?:this(?:\s+(?:tool|one))?|it)\W*$", re.I)


def _limits_by_reference(sentence: str, tool: str) -> bool:
    """Whether a segment of `sentence` limits the tool's use and finds what it limits in the sentence's other
    segments ("For one known id, get_ticket reads it; this tool is not for that"): a limit with no words of its
    own ("do not use it incorrectly") only counts when it refers back, and the rest, without `tool`, says
    something."""
    segments = [segment for segment in _SEGMENT.split(sentence) if segment.strip(" .")]
    for index, segment in enumerate(segments):
        rest = " ".join(segments[:index] + segments[index + 1:]).replace(tool, " ")
        limit = segment.strip(" .")
        if not _REFERS_BACK.search(limit) or not re.search(r"\w", rest):
            continue
        if _NOT_THIS_ONE.match(limit) or review.limits_use(f"{limit} {rest}", negation_in_condition=True):
            return True
    return False


def limits_and_points_to(description: str, tool: str) -> bool:
    """Whether one sentence of `description` limits the tool's use and points to `tool` instead, in either order
    ("Do not use it for a known id; get_ticket reads it", "For a known id, get_ticket reads it; not this tool")."""
    return any((review.says_when_not(sentence, negation_in_condition=True) or _limits_by_reference(sentence, tool))
               and points_to(sentence, tool) for sentence in review.sentences(description))
