"""Lesson 09's claim about retrying an MRTR call on SDK 2.3: a call retried from the start asks the person again,
while a resent second round (the same sealed `requestState` and answers) runs the tool again without asking,
because the seal expires (after its TTL, 600 s by default) but is not single-use.

Real `MCPServer`, real `Client`, real AES-GCM seal: the only thing replaced is the clock the SDK's request-state
boundary reads, moved past the TTL instead of waiting ten minutes.
"""

from __future__ import annotations

import re
from typing import Annotated

import anyio
import mcp.server.request_state as request_state
import mcp_types
from mcp import MCPError
from mcp.server import MCPServer
from mcp.server.mcpserver import AcceptedElicitation, Elicit, ElicitationResult, Resolve
from pydantic import BaseModel, Field

from course_lib import protocol, wire
from claims_ledger import cited_paragraphs, claim

REPLY = {"ticket_id": "T-7", "text": "Fixed, please retry."}


class Confirm(BaseModel):
    confirm: bool = Field(description="Send this reply to the customer?")


def ask_to_send(ticket_id: str, text: str) -> Elicit[Confirm]:
    return Elicit(f"Send this reply on {ticket_id}: {text!r}?", Confirm)


Confirmation = Annotated[ElicitationResult[Confirm], Resolve(ask_to_send)]


def support_desk(sent: list[tuple[str, str]]) -> MCPServer:
    """Lesson 09's `send_reply`: asks the person through `Resolve` + `Elicit`, takes no idempotency key."""
    desk = MCPServer("support-desk", log_level="WARNING")

    @desk.tool(description="Email a reply to a ticket's customer once the person confirms.")
    def send_reply(ticket_id: str, text: str, answer: Confirmation) -> str:
        if not isinstance(answer, AcceptedElicitation) or not answer.data.confirm:
            return "not sent"
        sent.append((ticket_id, text))
        return f"sent reply {len(sent)} on {ticket_id}"

    return desk


class Person:
    """The host's elicitation callback: says yes, and counts how often it was asked."""

    def __init__(self) -> None:
        self.asked = 0

    async def __call__(self, ctx, params) -> mcp_types.ElicitResult:
        self.asked += 1
        return mcp_types.ElicitResult(action="accept", content={"confirm": True})


async def second_round(desk: MCPServer) -> dict:
    """One confirmed call in the 2026-07-28 era; the params of its second `tools/call` (answers + sealed state)."""
    tap = wire.Tap(desk)
    async with wire.connect(tap, wire.MODERN, elicitation_callback=Person()) as client:
        await client.call_tool("send_reply", REPLY)
    calls = [frame for direction, frame in tap.frames if direction == "C->S" and frame.get("method") == "tools/call"]
    assert len(calls) == 2 and "requestState" not in calls[0]["params"]  # the question, then the answers
    return {key: value for key, value in calls[1]["params"].items() if key != "_meta"}


async def resend(desk: MCPServer, params: dict, person: Person):
    """The second round sent again on a fresh connection, as a retry after a lost answer would: wire data or error."""
    async with wire.connect(desk, wire.MODERN, elicitation_callback=person) as client:
        return await protocol.send_raw(client, "tools/call", params)


def text_of(outcome) -> str:
    """A result's text, or a refusal's message."""
    return outcome.message if isinstance(outcome, MCPError) else outcome["content"][0]["text"]


@claim("sdk-mrtr-resent-round-sends-again")
def test_a_resent_second_round_runs_the_tool_again_without_asking_until_the_seal_expires(monkeypatch):
    (paragraph,) = cited_paragraphs("sdk-mrtr-resent-round-sends-again")
    ttl = float(re.search(r"after (\d+) s\b", paragraph).group(1))  # the number the sentence states
    sent: list[tuple[str, str]] = []
    desk = support_desk(sent)
    before = request_state.time.time()
    params = anyio.run(second_round, desk)
    after = request_state.time.time()  # the state was sealed between `before` and `after`
    assert sent == [("T-7", "Fixed, please retry.")]
    assert set(params) == {"name", "arguments", "inputResponses", "requestState"}

    # Retried from the start: the person is asked again, and a second yes sends a second reply.
    person = Person()

    async def from_the_start() -> str:
        async with wire.connect(desk, wire.MODERN, elicitation_callback=person) as client:
            return (await client.call_tool("send_reply", REPLY)).content[0].text

    assert anyio.run(from_the_start) == "sent reply 2 on T-7" and person.asked == 1

    # The second round resent, twice: it runs again each time, and nobody is asked.
    person = Person()
    assert [text_of(anyio.run(resend, desk, params, person)) for _ in range(2)] == [
        "sent reply 3 on T-7", "sent reply 4 on T-7"]
    assert person.asked == 0 and len(sent) == 4

    # It expires: the boundary's clock set just inside and just past the TTL the sentence states.
    class Clock:
        now = 0.0

        @staticmethod
        def time() -> float:
            return Clock.now

    monkeypatch.setattr(request_state, "time", Clock)
    Clock.now = before + ttl - 1  # earlier than any expiry a seal made after `before` carries
    assert text_of(anyio.run(resend, desk, params, person)) == "sent reply 5 on T-7"
    Clock.now = after + ttl + 1  # later than any expiry a seal made before `after` carries
    assert text_of(anyio.run(resend, desk, params, person)) == "Invalid or expired requestState"
    assert len(sent) == 5 and person.asked == 0
