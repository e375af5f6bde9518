"""The one base of every error the course raises on purpose, with fields a caller reads instead of parsing text.

`str(error)` is one line for a person. The CLI catches `CourseError` once and prints that line;
exercise checks raise `ExerciseNotDone` and `CheckFailed`, which are also `AssertionError`s so that
test runners report them as failed checks.
"""

from __future__ import annotations


class CourseError(Exception):
    """A mistake or a finding the course reports as one line; fields say what it is about."""

    def __init__(self, message: str, *, exercise: str | None = None, expected: str | None = None,
                 found: str | None = None, hint: str | None = None, rule: str | None = None):
        super().__init__(message)
        self.message, self.exercise, self.expected, self.found, self.hint = message, exercise, expected, found, hint
        self.rule = rule

    def __str__(self) -> str:
        return self.message


class ExerciseNotDone(CourseError, AssertionError):
    """The exercise still holds its `raise NotImplementedError` stub."""


class CheckFailed(CourseError, AssertionError):
    """The learner's answer ran but is not right yet; `expected`, `found` and `hint` say what and where to look."""


class UnknownName(CourseError, LookupError):
    """A lesson, exercise, server or encoding name the course does not have."""


class BadFile(CourseError, ValueError):
    """A file (notebook, solution, snapshot, case file) that cannot be used as it is."""


class TargetProblem(CourseError):
    """An MCP server target that cannot be reached or is not an MCP server."""


class TokenizerDataError(CourseError, RuntimeError):
    """The bundled vocabulary is missing or does not match tiktoken's published hash."""


class UsageError(CourseError):
    """A command called the wrong way (an option, a path, a folder)."""
