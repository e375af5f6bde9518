"""The lesson's own weather case set (its tune cases), read from the installed course at run time: not one case is
the learner's (red team 10, c2 passed 8.1 this way while only the held-out sets were compared)."""

from importlib import resources

EXPECT = "is the course's case"


def answer():
    return (resources.files("course_lib.evals") / "cases" / "weather.toml").read_text(encoding="utf-8")
