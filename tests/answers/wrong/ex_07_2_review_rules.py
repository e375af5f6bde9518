"""Asks course_lib.review's poisoning rules, which the text sets aside as the lesson's answer."""

from course_lib import review

EXPECT = "it called review."


def answer(tool):
    return any(finding.rule.startswith(("description-", "parameter-", "hidden"))
               for finding in review.review_tool(tool))
