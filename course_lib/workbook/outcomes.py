"""A check's outcome as data: produced where the check runs, never parsed from text.

`course check` and `course grade` run every checker in the grading process and collect its outcome
in memory (`collecting()`); nothing the submission's kernel writes is ever read as an outcome. A
script that runs checks in its own process may instead set `COURSE_OUTCOMES` to a file: each check
then appends one JSON line there. In a learner's own kernel neither is set and nothing is kept.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import asdict, dataclass
from pathlib import Path

from course_lib.errors import BULLET

ENV = "COURSE_OUTCOMES"
STATUSES = ("passed", "not done", "failed", "edited", "skipped", "timeout", "kernel died", "unreadable",
            "not handed in", "misnamed")
SYMBOLS = {"passed": "✅", "not done": "⏳", "failed": "❌", "edited": "📝", "skipped": "⚠️", "timeout": "⏰",
           "kernel died": "💥", "unreadable": "🚫", "not handed in": "📭",
           "misnamed": "📛"}
MEANINGS = {
    "passed": "the check passed",
    "not done": "the answer is still the stub that raises NotImplementedError (or its cell had not run before the check)",
    "failed": "the check found a rule the answer breaks (or the check could not run it)",
    "edited": "the check cell was changed or removed; the course's own check ran instead, and counts for nothing "
              "(a check cell whose comments or spacing alone differ keeps the exercise's own status, with a note "
              "that the edit was ignored)",
    "skipped": "the check did not run (an earlier problem stopped the notebook)",
    "timeout": "a cell or the check did not finish within the time limit",
    "kernel died": "the notebook's kernel stopped (its exit code is in the message)",
    "unreadable": "the notebook could not be read or run at all (the whole notebook)",
    "not handed in": "no notebook with this exercise was graded for this student (it counts 0)",
    "misnamed": "not graded: the notebook's file name does not start with a lesson's number; rename it as its "
                "reason says (like 01_bad_tool_rewrite.ipynb) and rerun the grading (until then its exercises count 0)",
}
"""What each status means, for legends in reports."""
_LEARNER_STEPS = (
    (re.compile(r" Replace `raise NotImplementedError\(\.\.\.\)` with your code, run that cell, then run this check "
                r"again\."), ""),
    (re.compile(r" Open hints\.show\([^)]*\) for a hint\."), ""),
    (re.compile(r": fix that cell, run it, then run the check again\."), "."),
    (re.compile(r"run the exercise cell above first \((\S+) is not defined yet\)(\.?)"),
     r"\1 was not defined when the check ran\2"),  # the full stop only where it was (none inside an edited's "(…)")
)


def one_line(message: str) -> str:
    """A message that reports several broken rules (a lead line, then a line per rule) on one line, for a report
    whose rows are one line each: each rule after " • "."""
    return message.replace(BULLET, " • ")


def for_grader(message: str) -> str:
    """An outcome's message, on one line, without the steps it tells a learner to take (run the check again, open a
    hint): what a grader reads in grades.csv and grades.html."""
    message = one_line(message)
    for pattern, replacement in _LEARNER_STEPS:
        message = pattern.sub(replacement, message)
    return message.strip()

MARKS = frozenset("".join(SYMBOLS.values()) + "✓✔☑✗✘✖❎☒🟢🔴🟩🟥") - {"\ufe0f"}
"""Characters that read as a verdict (every status symbol, and the check and cross marks that look like one)."""


def unmarked(text: str) -> str:
    """`text` (a reason that may hold the learner's words: their exception, their tool's answer) with every verdict
    mark (`MARKS`) written as its escape (\\u2705), so text of theirs cannot show a ✅ inside a failed row."""
    if not MARKS.intersection(text):
        return text
    return "".join((f"\\u{ord(c):04x}" if ord(c) < 0x10000 else f"\\U{ord(c):08x}") if c in MARKS else c
                   for c in text)


def printable(text: str, limit: int | None = None) -> str:
    """`text` safe to show in any report (a terminal, a page, a CSV, Gradescope): every character that is not
    printable (escape codes, newlines, bidi overrides, zero-width marks, spaces other than " ") written as \\xNN,
    \\uNNNN or \\UNNNNNNNN, and at most `limit` characters (cut with "…"). Letters of every script stay as they are."""
    if not text.isprintable():
        text = "".join(c if c.isprintable() else f"\\x{ord(c):02x}" if ord(c) < 0x100
                       else f"\\u{ord(c):04x}" if ord(c) < 0x10000 else f"\\U{ord(c):08x}" for c in text)
    return text if limit is None or len(text) <= limit else text[:limit - 1] + "…"


_collector: ContextVar[list | None] = ContextVar("course_outcomes", default=None)


@dataclass(frozen=True)
class Outcome:
    """What one check found: the exercise ("1.2", or "*" for a whole notebook), a status, a message (one line, or
    for several broken rules a lead line and one line per rule: `one_line` joins them), a hint,
    and for a failure the name of the spec rule that failed."""

    exercise: str
    status: str
    message: str
    hint: str = ""
    rule: str = ""

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown outcome status {self.status!r}")

    @property
    def symbol(self) -> str:
        """The status as one symbol (✅ ⏳ ❌ 📝 ⚠️ ⏰ 💥 🚫); not done (⏳) and timeout (⏰) never look alike."""
        return SYMBOLS[self.status]


@contextmanager
def collecting() -> Iterator[list[Outcome]]:
    """Collect the outcomes of the checks run in this context (this thread) in the list it yields."""
    found: list[Outcome] = []
    token = _collector.set(found)
    try:
        yield found
    finally:
        _collector.reset(token)


def record(outcome: Outcome) -> None:
    """Keep `outcome` where a runner asked for it: its collector, or the file named by `COURSE_OUTCOMES`."""
    found = _collector.get()
    if found is not None:
        found.append(outcome)
    path = os.environ.get(ENV)
    if path:
        with open(path, "a", encoding="utf-8") as file:
            file.write(json.dumps(asdict(outcome), ensure_ascii=False) + "\n")


def recording() -> bool:
    """Whether a runner is collecting outcomes here (so a failed check must raise, not only print)."""
    return _collector.get() is not None or bool(os.environ.get(ENV))


def read(path: Path) -> list[Outcome]:
    """Every outcome recorded in `path`, in the order the checks ran."""
    if not path.is_file():
        return []
    return [Outcome(**json.loads(line)) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
