"""A check's outcome as data: produced where the check runs, read back by the runner, never parsed from text.

When `course check` or `course grade` runs a notebook, it sets `COURSE_OUTCOMES` to a file; every
check the kernel runs appends one JSON line there. Without the variable (a learner's own kernel),
nothing is written.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

ENV = "COURSE_OUTCOMES"
STATUSES = ("passed", "not done", "failed", "skipped", "timeout", "unreadable")
SYMBOLS = {"passed": "✅", "not done": "⏳", "failed": "❌", "skipped": "⚠️", "timeout": "⌛", "unreadable": "🚫"}


@dataclass(frozen=True)
class Outcome:
    """What one check found: the exercise ("1.2", or "*" for a whole notebook), a status, a one-line message, a hint,
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
        """The status as one symbol (✅ ⏳ ❌ ⚠️ ⌛ 🚫)."""
        return SYMBOLS[self.status]


def record(outcome: Outcome) -> None:
    """Append `outcome` to the file named by `COURSE_OUTCOMES`, if a runner asked for outcomes."""
    path = os.environ.get(ENV)
    if path:
        with open(path, "a", encoding="utf-8") as file:
            file.write(json.dumps(asdict(outcome), ensure_ascii=False) + "\n")


def recording() -> bool:
    """Whether a runner is collecting outcomes from this process."""
    return bool(os.environ.get(ENV))


def read(path: Path) -> list[Outcome]:
    """Every outcome recorded in `path`, in the order the checks ran."""
    if not path.is_file():
        return []
    return [Outcome(**json.loads(line)) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
