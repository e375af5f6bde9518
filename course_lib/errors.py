"""The one base of every error the course raises on purpose, with fields a caller reads instead of parsing text.

`str(error)` is one line for a person (a check that found several broken rules: a lead line, then one
line per rule, each opening with `BULLET`). The CLI catches `CourseError` once and prints that line;
exercise checks raise `ExerciseNotDone` and `CheckFailed`, which are also `AssertionError`s so that
test runners report them as failed checks.
"""

from __future__ import annotations

import functools
import re

BULLET = "\n• "
"""What opens each broken rule's line in a check's message that reports several (a lead line comes first): the only
line break a check's message has."""


_CODE = re.compile(r"`([^`\n]+)`")


def plain(text: str) -> str:
    """Course text for a plain-text status (a terminal, an error output): `code` in single quotes, as the other
    values a failure line quotes are ('time'); code that is already a quoted value (`"protocol"`) keeps its own
    quotes. The notebook's styled status shows the same text with <code> instead."""
    def quote(code: re.Match) -> str:
        inner = code[1]
        return inner if len(inner) > 1 and inner[0] == inner[-1] and inner[0] in "'\"" else f"'{inner}'"

    return _CODE.sub(quote, text)


class CourseError(Exception):
    """A mistake or a finding the course reports as one line; fields say what it is about."""

    def __init__(self, message: str, *, exercise: str | None = None, expected: str | None = None,
                 found: str | None = None, hint: str | None = None, rule: str | None = None):
        super().__init__(message)
        self.message, self.exercise, self.expected, self.found, self.hint = message, exercise, expected, found, hint
        self.rule = rule

    def __str__(self) -> str:
        return self.message


class _CheckStatus(CourseError, AssertionError):
    """A check's failure, which a notebook shows as the check's status, not as a Python traceback.

    Raised in a check cell (under nbval, `jupyter execute`, any kernel not started by a Jupyter server) the cell
    still fails and Jupyter still records an error output (its `ename` and `evalue` as usual); IPython shows the
    lines `_render_traceback_` returns in place of the traceback, and the error output's `traceback` holds them."""

    SYMBOL = "❌"
    WIDTH = 100
    """Lines wrapped at spaces here: JupyterLab's error box breaks a long line anywhere, even mid-word."""

    def status_lines(self) -> list[str]:
        """The status as plain lines: the symbol and what to change (each broken rule on lines of its own, after a
        lead line, when there are several), then where the hints are."""
        import textwrap

        said = self.message
        if self.hint:
            said = said.replace(f" Open {self.hint} for a hint.", "").strip()
        lead, *rules = plain(said).split(BULLET)
        wrap = functools.partial(textwrap.wrap, width=self.WIDTH, break_long_words=False, break_on_hyphens=False)
        lines = wrap(f"{self.SYMBOL} {lead}", subsequent_indent="   ")
        for rule in rules:
            lines += wrap(rule, initial_indent="   • ", subsequent_indent="     ")
        if self.hint and self.exercise:
            lines.append(f"   Stuck? {self.hint} (in a terminal: .venv/bin/course hint {self.exercise})")
        return lines

    def _render_traceback_(self) -> list[str]:
        """What IPython shows (and stores as the error output's traceback) instead of a traceback: the status in
        bold, then the hint line."""
        return [line if line.startswith("   Stuck? ") else f"\x1b[1m{line}\x1b[0m" for line in self.status_lines()]


class ExerciseNotDone(_CheckStatus):
    """The exercise still holds its `raise NotImplementedError` stub."""

    SYMBOL = "⏳"


class CheckFailed(_CheckStatus):
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
