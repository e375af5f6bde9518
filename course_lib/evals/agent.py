"""Multi-step tasks: the agent loop (model → tool call → server → result → model) against an in-process server.

A task's outcome is checked in the server's state, not in what the model says. Any object with
`step(messages, tools) -> Step` can drive the loop: the real-model choosers in `models`, or
`ScriptedModel`, a test double that replays fixed tool calls (the servers and the loop stay real).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Step:
    """One model turn: its text and the tool calls it asks for ({id, name, arguments}), with token counts."""

    text: str = ""
    calls: list[dict] = field(default_factory=list)
    tokens_in: int = 0
    tokens_out: int = 0


@dataclass(frozen=True)
class Task:
    """A request whose outcome can be verified in the backend's state."""

    name: str
    request: str
    build: Callable[[Any], Any]
    """Builds the server over a backend: `build(store) -> MCPServer`."""
    backend: Callable[[], Any]
    """A fresh backend (for example `incidents.Store`)."""
    verify: Callable[[Any], bool]
    """True when the backend shows the task done (for example: exactly one new note on INC-101)."""


@dataclass(frozen=True)
class TaskResult:
    """Per task: success, the tool calls made, tokens in and out, errors, steps and wall time."""

    task: str
    success: bool
    calls: list[tuple[str, dict]]
    tokens_in: int
    tokens_out: int
    errors: list[str]
    steps: int
    seconds: float
    stopped: str


class ScriptedModel:
    """A stand-in for a model: replays `script`, a list of turns, each a list of (tool, arguments); then stops."""

    name = "scripted"

    def __init__(self, script: list[list[tuple[str, dict]]], final: str = "Done."):
        self.script, self.final, self.seen = list(script), final, []

    def step(self, messages: list[dict], tools: list[dict]) -> Step:
        self.seen.append([message["role"] for message in messages])
        turn = len([m for m in messages if m["role"] == "assistant"])
        if turn >= len(self.script):
            return Step(self.final, [], 10, 2)
        calls = [{"id": f"call-{turn}-{i}", "name": name, "arguments": args}
                 for i, (name, args) in enumerate(self.script[turn])]
        return Step("", calls, 10, 5)


async def run_task(model: Any, task: Task, max_steps: int = 8) -> TaskResult:
    """Run the loop until the model stops calling tools or `max_steps` model turns; verify in the backend."""
    from course_lib import wire

    backend = task.backend()
    server = task.build(backend)
    started = time.perf_counter()
    messages: list[dict] = [{"role": "user", "text": task.request}]
    calls: list[tuple[str, dict]] = []
    errors: list[str] = []
    tokens_in = tokens_out = steps = 0
    stopped = "step limit"
    async with wire.connect(server) as client:
        tools = wire.dump(list((await client.list_tools()).tools))
        while steps < max_steps:
            step = model.step(messages, tools)
            steps += 1
            tokens_in, tokens_out = tokens_in + step.tokens_in, tokens_out + step.tokens_out
            messages.append({"role": "assistant", "text": step.text, "calls": step.calls})
            if not step.calls:
                stopped = "model finished"
                break
            for call in step.calls:
                calls.append((call["name"], call["arguments"]))
                result = wire.dump(await client.call_tool(call["name"], call["arguments"]))
                text = json.dumps(result.get("structuredContent")) if "structuredContent" in result else \
                    "\n".join(block.get("text", "") for block in result.get("content", []))
                if result.get("isError"):
                    errors.append(f"{call['name']}: {text[:160]}")
                messages.append({"role": "tool", "id": call["id"], "name": call["name"], "text": text,
                                 "is_error": bool(result.get("isError"))})
    return TaskResult(task.name, bool(task.verify(backend)), calls, tokens_in, tokens_out, errors, steps,
                      time.perf_counter() - started, stopped)


def incident_tasks() -> list[Task]:
    """Lesson 08's multi-step tasks on the incident desk, each verified in the store."""
    from course_lib.servers import incidents

    def one_new_note(incident_id: str, before: int) -> Callable[[Any], bool]:
        return lambda store: len(store.notes(incident_id)) == before + 1

    return [
        Task("note-on-checkout-latency",
             "Add a note to the checkout latency incident: cache flushed, latency back under 1 s.",
             lambda store: incidents.build_server("ana", store), incidents.Store,
             one_new_note("INC-101", 1)),
        Task("close-stale-search",
             "Close the stale search results incident as fixed.",
             lambda store: incidents.build_server("ana", store), incidents.Store,
             lambda store: store.get("ana", "INC-103").status == "resolved"),
    ]
