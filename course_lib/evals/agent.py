"""The agent loop for multi-step tasks: model → tool calls → server → results → model, over a real client.

Any object with `step(messages, tools) -> Step` drives the loop: the real-model choosers in `models`,
the offline `offline.LexicalAgent`, or `ScriptedModel`, a test double that replays fixed tool calls.
Messages are the neutral ones `choice.conversation` describes. A task's outcome is judged on the
server's state afterwards (`run.run_task`), never on what the model says.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Step:
    """One model turn: its text and the tool calls it asks for, with token counts.

    Each call is `{"id", "name", "arguments"}`, plus `"error"` when the call could not be read (arguments
    that are not a JSON object, with `"raw"`, the arguments as the model sent them; or no tool name, `name` ""):
    such a call is answered with an error that says so, never made, and goes back to the model as sent.
    `error` is set when the reply itself could not be read as a turn (no message at all): a malformed reply,
    which fails the case or ends the task's run.
    """

    text: str = ""
    calls: list[dict] = field(default_factory=list)
    tokens_in: int = 0
    tokens_out: int = 0
    error: str = ""


@dataclass
class Loop:
    """What one run of the loop did: the conversation, the calls made, errors, steps, tokens, why it stopped."""

    messages: list[dict]
    calls: list[tuple[str, dict]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    steps: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    stopped: str = "step limit"


MALFORMED = "malformed reply"
"""`Loop.stopped` when the model's reply could not be read as a turn: the run fails."""


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


def answered(messages: list[dict]) -> list[tuple[dict, dict | None]]:
    """Each call of a conversation with its result message (None when it has none), in order.

    A call and its result are paired by position (a turn's results follow it, one per call, in its calls' order),
    never by id alone: providers reuse ids (`call_0` in every reply), so an id may name several calls of a run.
    """
    pairs: list[tuple[dict, dict | None]] = []
    pending: list[int] = []
    for message in messages:
        if message["role"] == "assistant":
            pending = []
            for call in message.get("calls", []):
                pending.append(len(pairs))
                pairs.append((call, None))
        elif message["role"] == "tool" and pending:
            index = pending.pop(0)
            pairs[index] = (pairs[index][0], message)
    return pairs


def result_text(result: dict) -> str:
    """What a model reads of a tool result: its structured content as JSON, else its text blocks."""
    if result.get("structuredContent") is not None:
        return json.dumps(result["structuredContent"], ensure_ascii=False)
    return "\n".join(block.get("text", "") for block in result.get("content", []))


async def call_tool(client: Any, name: str, arguments: dict) -> dict:
    """One tool call as a wire dict; a protocol error (an unknown tool, say) becomes an error result."""
    from mcp import MCPError

    from course_lib import wire

    try:
        return wire.dump(await client.call_tool(name, arguments))
    except MCPError as error:
        return {"isError": True, "content": [{"type": "text", "text": f"protocol error {error.code}: {error}"}]}


def _unique_ids(messages: list[dict], calls: list[dict], turn: int) -> list[dict]:
    """A turn's calls, each with an id no earlier call of the conversation has: a missing or repeated id (providers
    reuse `call_0`) is replaced by the harness's own, so the results that go back to the model are unambiguous."""
    used = {str(c.get("id")) for m in messages if m["role"] == "assistant" for c in m.get("calls", [])}
    out = []
    for number, call in enumerate(calls):
        given = call.get("id")
        if not isinstance(given, str) or not given or given in used:
            given = f"harness_{turn}_{number}"
            while given in used:
                given += "_"
            call = {**call, "id": given}
        used.add(given)
        out.append(call)
    return out


async def loop(model: Any, client: Any, tools: list[dict], request: str, max_steps: int = 8, trial: int = 1) -> Loop:
    """Run the loop until the model stops calling tools or `max_steps` model turns."""
    import anyio

    run = Loop([{"role": "user", "text": request}])
    while run.steps < max_steps:
        if getattr(model, "takes_trial", False):
            step = await anyio.to_thread.run_sync(lambda: model.step(run.messages, tools, trial=trial))
        else:
            step = await anyio.to_thread.run_sync(model.step, run.messages, tools)
        run.steps += 1
        run.tokens_in, run.tokens_out = run.tokens_in + step.tokens_in, run.tokens_out + step.tokens_out
        if step.error:
            run.stopped = MALFORMED
            run.errors.append(f"{MALFORMED}: {step.error}")
            break
        calls = _unique_ids(run.messages, step.calls, run.steps)
        run.messages.append({"role": "assistant", "text": step.text,
                             "calls": [{k: v for k, v in c.items() if k != "error"} for c in calls]})
        if not calls:
            run.stopped = "model finished"
            break
        for call in calls:
            if call.get("error"):
                fix = ("name one of the tools on offer" if not call["name"] else
                       "send the arguments as one JSON object that matches the tool's inputSchema")
                result = {"isError": True, "content": [{"type": "text", "text": f"{call['error']}; {fix}"}]}
            else:
                run.calls.append((call["name"], call["arguments"]))
                result = await call_tool(client, call["name"], call["arguments"])
            text = result_text(result)
            if result.get("isError"):
                run.errors.append(f"{call['name'] or '(no tool name)'}: {text[:160]}")
            run.messages.append({"role": "tool", "id": call["id"], "name": call["name"], "text": text,
                                 "is_error": bool(result.get("isError"))})
    return run
