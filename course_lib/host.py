"""A small simulated host: before each tool call it decides whether to ask the person first.

The decision comes from two things: the tool's annotations (hints the server wrote about itself)
and whether the person trusts that server (the host's own configuration, keyed by the name the
host gave the connection, never by a name the server reports). Each call prints the decision and
its reason. Lesson 04 builds it; later lessons extend it, for example to wrap untrusted results.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from course_lib import wire

DEFAULTS: dict[str, bool] = {
    "readOnlyHint": False,
    "destructiveHint": True,
    "idempotentHint": False,
    "openWorldHint": True,
}
"""What a host must assume when a hint is absent (the MCP spec's defaults): the cautious reading."""
HINTS: tuple[str, ...] = tuple(DEFAULTS)


@dataclass(frozen=True)
class Decision:
    """Whether to ask the person before a call, and why; `retry` = may resend it after a timeout."""

    ask: bool
    reason: str
    retry: bool = False

    def __str__(self) -> str:
        resend = " (a timed-out call may be resent as is)" if self.ask and self.retry else ""
        return f"{'ASK' if self.ask else 'run'} · {self.reason}{resend}"


Policy = Callable[[dict, bool], Decision]
"""A confirmation policy: (the tool's annotations as sent, is the server trusted) -> Decision."""
Person = Callable[[str, str, dict, Decision], bool]
"""The person at the keyboard: (server, tool, arguments, decision) -> approve?"""


def annotations_of(tool: Any) -> dict:
    """The annotations a tool definition carries, in wire form ({} when it has none)."""
    definition = wire.dump(tool) if not isinstance(tool, dict) else tool
    return dict(definition.get("annotations") or {})


def effective_hints(annotations: dict) -> dict[str, bool]:
    """Each of the four hints as given, or its default when absent."""
    return {hint: default if annotations.get(hint) is None else bool(annotations[hint])
            for hint, default in DEFAULTS.items()}


def _judge(annotations: dict, source: str) -> Decision:
    hints = effective_hints(annotations)
    outside = " and reaches outside" if hints["openWorldHint"] else ""
    if hints["readOnlyHint"]:
        return Decision(False, f"{source} says it only reads{outside}", retry=True)
    change = "may delete or overwrite data" if hints["destructiveHint"] else "only adds data"
    return Decision(True, f"{source} says it {change}{outside}", retry=hints["idempotentHint"])


def careful(annotations: dict, trusted: bool) -> Decision:
    """Believe annotations only from trusted servers; ask before every call to any other server."""
    if not trusted:
        return Decision(True, "untrusted server: its annotations are ignored, so every call could do anything")
    return _judge(annotations, "trusted server")


def trusting(annotations: dict, trusted: bool) -> Decision:
    """The naive policy: believe every server's annotations (the one a lying server exploits)."""
    return _judge(annotations, "server")


def person(default: bool = False, **answers: bool) -> Person:
    """A scripted person who answers `answers[tool]` when asked about that tool, else `default`."""

    def answer(server: str, tool: str, arguments: dict, decision: Decision) -> bool:
        return answers.get(tool, default)

    return answer


@dataclass
class Entry:
    """One call the host handled: what it decided, whether the person approved, whether it ran."""

    server: str
    tool: str
    arguments: dict
    decision: Decision
    approved: bool | None
    called: bool


@dataclass
class Session:
    """The host's connection to one server: `call` decides, maybe asks, then calls."""

    host: Host
    label: str
    client: Any
    tools: dict[str, Any] = field(default_factory=dict)

    async def call(self, tool: str, arguments: dict | None = None) -> Any:
        """Call `tool` if the policy lets it run or the person approves; None when it was not called."""
        arguments = arguments or {}
        decision = self.host.decide(self.label, self.tools.get(tool, {"name": tool}))
        approved = self.host.person(self.label, tool, arguments, decision) if decision.ask else None
        called = not decision.ask or bool(approved)
        self.host.log.append(Entry(self.label, tool, arguments, decision, approved, called))
        if self.host.echo:
            shown = json.dumps(arguments, ensure_ascii=False, default=str)
            print(f"{self.label}.{tool} {shown if len(shown) <= 140 else shown[:139] + '…'}")
            print(f"  host: {decision}")
            if decision.ask:
                print(f"  person: {'yes, run it' if approved else 'no, not called'}")
        return await self.client.call_tool(tool, arguments) if called else None


class Host:
    """A host with a confirmation policy, a set of trusted servers and a person to ask."""

    def __init__(self, policy: Policy = careful, trusted: Iterable[str] = (), person: Person = person(),
                 echo: bool = True):
        self.policy, self.trusted, self.person, self.echo = policy, frozenset(trusted), person, echo
        self.log: list[Entry] = []

    def decide(self, server: str, tool: Any) -> Decision:
        """The policy's decision for one tool of the server the host calls `server`."""
        decision = self.policy(annotations_of(tool), server in self.trusted)
        if not isinstance(decision, Decision):
            raise TypeError(f"a policy must return host.Decision(ask=..., reason=...), not {type(decision).__name__}")
        return decision

    @asynccontextmanager
    async def connect(self, label: str, server: Any, era: wire.Era = wire.MODERN) -> AsyncIterator[Session]:
        """Connect to `server` under the host's own name for it, `label`, and list its tools."""
        async with wire.connect(server, era) as client:
            tools = {tool.name: tool for tool in (await client.list_tools()).tools}
            yield Session(self, label, client, tools)
