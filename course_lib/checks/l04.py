"""Checkers and hints for lesson 04: annotations are hints."""

from __future__ import annotations

import json
from typing import Any

from course_lib import host, wire
from course_lib.checks.core import call_learner, checker, fail, probe, require
from course_lib.servers.base import new_server, tool as register_tool

HINTS: dict[str, tuple[str, ...]] = {
    "4.1": (
        "Read each description and answer four questions: does it change anything? Can it remove or "
        "overwrite data? Does a second identical call change anything more? Does it reach beyond this server?",
        "A hint you leave out is read with its default: readOnlyHint false, destructiveHint true, "
        "idempotentHint false, openWorldHint true. A tool that only touches this server's own data needs "
        "open_world_hint=False said out loud.",
        "get_service_status: read_only_hint=True, open_world_hint=False. add_runbook_step: read_only_hint=False, "
        "destructive_hint=False, idempotent_hint=True, open_world_hint=False. delete_runbook: destructive True, "
        "idempotent True, open world False. post_status_update: destructive False, idempotent False, open world True.",
    ),
    "4.2": (
        "Three bugs: v1 never looks at `trusted`, reads an absent hint as false, and lets a change run "
        "because it claims not to destroy anything. The team's rules list what may run without asking.",
        "Start with `if not trusted: return host.Decision(True, ...)`. Then take hints = "
        "host.effective_hints(annotations), which fills in the defaults for absent hints.",
        "Run without asking only when hints['readOnlyHint'] and not hints['openWorldHint']; every other case "
        "returns host.Decision(True, <a reason>). host.careful is close, but it also runs trusted reads that "
        "reach outside.",
    ),
}

# --- 4.1 honest annotations ---------------------------------------------------------------------------

TRUTH: dict[str, dict[str, tuple[bool, str]]] = {
    "get_service_status": {
        "readOnlyHint": (True, "it only reads"),
        "openWorldHint": (False, "it reads only this server's own status table"),
    },
    "add_runbook_step": {
        "readOnlyHint": (False, "it adds a step"),
        "destructiveHint": (False, "existing steps are never changed or removed"),
        "idempotentHint": (True, "a second call with the same requestId adds nothing"),
        "openWorldHint": (False, "the runbook lives on this server"),
    },
    "delete_runbook": {
        "readOnlyHint": (False, "it deletes steps"),
        "destructiveHint": (True, "deleted steps cannot be recovered"),
        "idempotentHint": (True, "deleting an already empty runbook changes nothing"),
        "openWorldHint": (False, "the runbook lives on this server"),
    },
    "post_status_update": {
        "readOnlyHint": (False, "it publishes a post"),
        "destructiveHint": (False, "it only adds a post"),
        "idempotentHint": (False, "every call publishes a new post"),
        "openWorldHint": (True, "customers read the public status page"),
    },
}


@checker("4.1")
def ex_04_1(ops_annotations) -> str:
    """Check honest annotations for the four ops tools, as a host reads them from `tools/list`."""
    from mcp_types import ToolAnnotations

    from course_lib.servers import ops

    given = call_learner(ops_annotations)
    require(isinstance(given, dict), "a dict mapping each tool name to its ToolAnnotations", type(given).__name__)
    unknown = sorted(set(given) - set(ops.TOOL_NAMES))
    require(not unknown, f"only the tool names {', '.join(ops.TOOL_NAMES)}",
            f"unknown name(s) {', '.join(unknown)}")
    for name, value in given.items():
        require(isinstance(value, (ToolAnnotations, dict)), f"a ToolAnnotations(...) for {name}",
                type(value).__name__)
    try:
        server = ops.build_server(annotations=given)
    except Exception as error:  # e.g. a dict with a misspelled hint
        raise fail("ToolAnnotations(...) values the SDK accepts", f"{type(error).__name__}") from None
    seen = probe(server)
    for name, truth in TRUTH.items():
        sent = seen.tool(name).get("annotations") or {}
        effective = host.effective_hints(sent)
        for hint, (honest, why) in truth.items():
            if effective[hint] != honest:
                found = (f"absent, which a host reads as {json.dumps(host.DEFAULTS[hint])}" if sent.get(hint) is None
                         else json.dumps(sent[hint]))
                raise fail(f"{name} with {hint} {json.dumps(honest)} ({why})", found)
    return "a host now reads one read-only tool, one additive and idempotent, one destructive, one open-world"


# --- 4.2 the team's confirmation policy ---------------------------------------------------------------

TRUSTED = ("incidents", "weather", "ops", "status")
"""The servers the checker's host trusts; `drafts` (the liar) is not among them."""


def _status_server():
    """A trusted server whose read-only tool does not say whether it reaches outside."""
    from mcp_types import ToolAnnotations

    server = new_server("status")

    @register_tool(server, annotations=ToolAnnotations(read_only_hint=True))
    def check_vendor_status(vendor: str) -> str:
        """Check a payment vendor's public status page."""
        return f"{vendor}: operational"

    return server


def _servers() -> dict[str, Any]:
    from course_lib.servers import drafts, incidents, ops, weather

    return {"incidents": incidents.build_server("ana"), "weather": weather.build_server(), "ops": ops.build_server(),
            "status": _status_server(), "drafts": drafts.build_server()}


SCENARIO: list[tuple[str, str, dict, bool, str]] = [
    ("drafts", "tidy_drafts", {}, True, "an untrusted server's annotations are ignored"),
    ("drafts", "list_drafts", {}, True, "every call to an untrusted server asks, even one labelled read-only"),
    ("ops", "delete_runbook", {"service": "search"}, True,
     "trusted, but it sends no annotations: an absent destructiveHint means true"),
    ("ops", "get_service_status", {"service": "search"}, True,
     "trusted, but it sends no annotations: an absent readOnlyHint means false"),
    ("incidents", "add_incident_note", {"incidentId": "INC-101", "note": "Checked.",
                                        "requestId": "5a3e1c9b-7f2d-4b8e-a6c4-1d9f8e7b6a50"}, True,
     "trusted, but it adds data: only reads may run without asking"),
    ("weather", "get_daily_forecast", {"city": "Oslo", "days": 1}, True,
     "trusted and read-only, but it reaches outside: openWorldHint true"),
    ("status", "check_vendor_status", {"vendor": "acquirer"}, True,
     "trusted and read-only, but an absent openWorldHint means true"),
    ("incidents", "get_incident", {"incidentId": "INC-101"}, False,
     "a trusted read that stays inside; asking before every read trains people to click yes"),
    ("incidents", "search_incidents", {}, False, "a trusted read that stays inside"),
]


@checker("4.2")
def ex_04_2(team_policy) -> str:
    """Check the team's policy in a host that calls five servers through real clients."""
    servers = _servers()
    listed = {label: {t["name"]: t for t in probe(server).tools} for label, server in servers.items()}
    for label, tool, _, _, _ in SCENARIO:  # call it once per case first: a crash or a wrong type fails here
        decision = call_learner(team_policy, host.annotations_of(listed[label][tool]), label in TRUSTED)
        require(isinstance(decision, host.Decision), "team_policy to return host.Decision(ask=..., reason=...)",
                type(decision).__name__)
        require(isinstance(decision.reason, str) and bool(decision.reason.strip()),
                "a reason in every Decision", repr(decision.reason))
    agent = host.Host(team_policy, trusted=TRUSTED, person=host.person(default=False), echo=False)

    async def run() -> list[str]:
        for label, tool, arguments, _, _ in SCENARIO:
            async with agent.connect(label, servers[label]) as session:
                await session.call(tool, arguments)
        async with wire.connect(servers["drafts"]) as client:
            return (await client.call_tool("list_drafts", {})).structured_content["drafts"]

    drafts_left = wire.run_sync(run)
    for (label, tool, _, should_ask, why), entry in zip(SCENARIO, agent.log):
        if entry.decision.ask != should_ask:
            found = "it ran without asking" if should_ask else "the host asked first"
            if tool == "tidy_drafts":
                found += f" and deleted all {3 - len(drafts_left)} drafts"
            raise fail(f"{label}.{tool} to {'ask first' if should_ask else 'run without asking'} ({why})", found)
    return ("trusted inside-only reads ran without asking; every other call asked first, and the lying "
               "tidy_drafts deleted nothing")
