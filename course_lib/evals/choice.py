"""The chooser interface: what any model (or stand-in for one) must answer for an eval case.

A conversation reaches a chooser in one neutral form, the one the agent loop keeps and the
transcripts store; each real-model adapter turns it into its provider's own messages:

| neutral message | meaning |
|---|---|
| `{"role": "user", "text": ...}` | the person's words |
| `{"role": "assistant", "text": ..., "calls": [{"id", "name", "arguments"}]}` | a model turn, with tool calls |
| `{"role": "tool", "id", "name", "text", "is_error"}` | one tool call's result |
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from course_lib.errors import CourseError


@dataclass(frozen=True)
class Turn:
    """One earlier text turn of the conversation, before the request: who said it (user or assistant) and what."""

    role: str
    text: str


@dataclass(frozen=True)
class ToolStep:
    """A tool call the host already made for the request, with the text of its result."""

    tool: str
    arguments: dict[str, Any]
    result: str
    is_error: bool = False


@dataclass(frozen=True)
class Call:
    """One further tool call of a model's turn: its tool, its arguments, and why they could not be read (or "")."""

    tool: str
    arguments: dict[str, Any] = field(default_factory=dict)
    error: str = ""


@dataclass(frozen=True)
class Choice:
    """A chooser's answer: the tool it calls (None: no tool) and the arguments it builds.

    `error` is set when the answer could not be used as a call (for example arguments that are not JSON);
    `text` is what the chooser said in words (with or without a tool call; `score.untrue` reads the words that go
    with a call, "Searching first, then closing every incident."), empty when it said nothing;
    `also` holds the other calls a model made in the same turn, after the first (`Call`s; a bare tool name stands
    for a call of it with no arguments).
    """

    tool: str | None
    arguments: dict[str, Any] = field(default_factory=dict)
    reason: str = ""
    tokens_in: int = 0
    tokens_out: int = 0
    error: str = ""
    text: str = ""
    also: tuple[Call | str, ...] = ()
    """Further calls made in the same turn, in order (a host runs every call of a turn; the harness judges them all)."""

    @property
    def further(self) -> tuple[Call, ...]:
        """The turn's further calls, each as a `Call`."""
        return tuple(item if isinstance(item, Call) else Call(item) for item in self.also)


class Chooser(Protocol):
    """Anything that reads a request and tool definitions (wire dicts, as `tools/list` returns them) and chooses."""

    name: str

    def choose(self, request: str, tools: list[dict], prior: tuple[Turn, ...] = (),
               steps: tuple[ToolStep, ...] = ()) -> Choice:
        """The tool to call for `request` (or none) and its arguments."""
        ...


def conversation(request: str, prior: tuple[Turn, ...] = (), steps: tuple[ToolStep, ...] = ()) -> list[dict]:
    """Neutral messages: the earlier text turns, the request, then each tool step as a call and its result."""
    messages: list[dict] = [{"role": turn.role, "text": turn.text} for turn in prior]
    messages.append({"role": "user", "text": request})
    for number, step in enumerate(steps, 1):
        call_id = f"call_{number}"
        messages.append({"role": "assistant", "text": "",
                         "calls": [{"id": call_id, "name": step.tool, "arguments": dict(step.arguments)}]})
        messages.append({"role": "tool", "id": call_id, "name": step.tool, "text": step.result,
                         "is_error": step.is_error})
    return messages


class ProviderError(CourseError):
    """A model provider that could not answer (an HTTP error, retries used up, no connection): one line."""
