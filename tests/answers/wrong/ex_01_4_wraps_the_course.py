"""A wrapper around the course's own review.is_valid_name, which is the answer (issue 29, C01's remaining hole: the
course function itself is refused as an answer, a function of the learner's that calls it was not)."""

from course_lib import review

EXPECT = "it called review.is_valid_name"


def answer(name):
    return review.is_valid_name(name)
