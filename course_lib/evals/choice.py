"""The chooser interface: what any model (or stand-in for one) must answer for an eval case."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True)
class Turn:
    """One earlier turn of the conversation: who said it (user, assistant or tool) and the text."""

    role: str
    text: str


@dataclass(frozen=True)
class Choice:
    """A chooser's answer: the tool it calls (None: no tool) and the arguments it builds."""

    tool: str | None
    arguments: dict[str, Any] = field(default_factory=dict)
    reason: str = ""
    tokens_in: int = 0
    tokens_out: int = 0


class Chooser(Protocol):
    """Anything that reads a request and tool definitions (wire dicts, as `tools/list` returns them) and chooses."""

    name: str

    def choose(self, request: str, tools: list[dict], prior: tuple[Turn, ...] = ()) -> Choice:
        """The tool to call for `request` (or none) and its arguments."""
        ...
