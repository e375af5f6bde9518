"""Checkers and hints for lesson 04: annotations are hints.

Each checker judges against a written spec (`RULES_4_N`) that the exercise text states word for word.
4.1's honest hints are observed by driving the ops toolbox (does a call change anything? does a second
identical call change anything more? does it remove what was there?); 4.2's expected decisions are the
team's rules applied to annotations read from real servers and to every combination of hints.
"""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

from course_lib import host, wire
from course_lib.checks.core import call_learner, checker, fail, probe, require, quoted, spec
from course_lib.servers.base import new_server, tool as register_tool

HINTS: dict[str, tuple[str, ...]] = {
    "4.1": (
        "Read each description and answer four questions: does it change anything? Can it remove or "
        "overwrite data? Does a second identical call change anything more? Does it reach beyond this server?",
        "A hint you leave out is read with its default: readOnlyHint false, destructiveHint true, "
        "idempotentHint false, openWorldHint true. A tool that only touches this server's own data needs "
        "open_world_hint=False said out loud. A read-only tool never says destructive_hint=True.",
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
        "returns host.Decision(True, <a reason>). Give each outcome its own reason in words, such as 'untrusted "
        "server: its annotations are ignored'. host.careful is close, but it also runs trusted reads that reach "
        "outside.",
    ),
}

# --- 4.1 honest annotations ---------------------------------------------------------------------------

RULES_4_1 = spec(
    ("dict", "return a dict with one `ToolAnnotations(...)` (or its wire-form dict) per ops tool, keyed by tool "
             "name, and no other names; every hint you give is a real bool (True or False)",
     "the returned keys and values; the toolbox is built with them"),
    ("read_only", "say `readOnlyHint` true exactly for the tool that changes nothing",
     "annotations read through a real client, absent hints taken at their defaults, compared with what calling "
     "each tool on a fresh toolbox changes"),
    ("destructive", "for each tool that changes data, say whether it can remove or overwrite what was there "
                    "(`destructiveHint`)",
     "observed: do existing runbook steps or posts survive a call?"),
    ("idempotent", "for each tool that changes data, say whether a second identical call changes anything more "
                   "(`idempotentHint`)",
     "observed: each changing tool called twice with the same arguments"),
    ("open_world", "say `openWorldHint` true only for the tool whose effect reaches people outside this server",
     "not observable in process: the check reads it from the tool's description (customers read the public "
     "status page; everything else lives on this server)"),
    ("consistent", "never set `destructiveHint` true on a read-only tool (it destroys nothing, and the schema "
     "gives `destructiveHint` a meaning only when `readOnlyHint` is false, so leaving it out is fine)",
     "the annotations as sent"),
)


@checker("4.1", RULES_4_1)
def ex_04_1(ops_annotations) -> str:
    """Check honest annotations for the four ops tools, as a host reads them from `tools/list`."""
    from mcp_types import ToolAnnotations

    from course_lib.servers import ops

    def observed_hints() -> dict[str, dict[str, tuple[bool, str]]]:
        """The honest hints of the ops toolbox, found by calling its tools on a fresh server."""
        from course_lib.servers import ops

        async def run() -> dict[str, dict[str, tuple[bool, str]]]:
            async with wire.connect(ops.build_server()) as client:
                async def call(name: str, **arguments: Any) -> dict:
                    return wire.dump(await client.call_tool(name, arguments)).get("structuredContent") or {}

                async def state() -> dict:
                    return {s: await call("get_service_status", service=s) for s in ("checkout", "payments", "search")}

                before = await state()
                after = await state()  # get_service_status was called three times in between
                reads_only = before == after
                key = "0b1c5e2a-6f3d-4c8e-9a71-2d4f6b8e0c13"
                first = await call("add_runbook_step", service="checkout", step="Page the on-call.", requestId=key)
                other = await call("add_runbook_step", service="checkout", step="Check the queue.",
                                   requestId="7e2d9c40-1a5b-4f38-b6e2-93c0d1a8f547")
                kept = other["steps"][: len(first["steps"])] == first["steps"]
                added = len(first["steps"]) > before["checkout"]["runbookSteps"]
                repeat = await call("add_runbook_step", service="checkout", step="Page the on-call.", requestId=key)
                add_again = len(repeat["steps"]) > len(other["steps"])
                emptied = await call("delete_runbook", service="payments")
                removed = (await state())["payments"]["runbookSteps"] < before["payments"]["runbookSteps"]
                await call("delete_runbook", service="payments")
                delete_again = (await state())["payments"]["runbookSteps"] != len(emptied["steps"])
                post = await call("post_status_update", service="checkout", message="Checkout is slow; we are on it.")
                second_post = await call("post_status_update", service="checkout", message="Checkout is slow; we are on it.")
            return {
                "get_service_status": {
                    "readOnlyHint": (reads_only, "calling it changes nothing"),
                    "openWorldHint": (False, "it reads only this server's own status table"),
                },
                "add_runbook_step": {
                    "readOnlyHint": (not added, "it adds a step"),
                    "destructiveHint": (not kept, "existing steps stay as they were"),
                    "idempotentHint": (not add_again, "a second call with the same requestId adds nothing"),
                    "openWorldHint": (False, "the runbook lives on this server"),
                },
                "delete_runbook": {
                    "readOnlyHint": (not removed, "it deletes steps"),
                    "destructiveHint": (removed, "deleted steps cannot be recovered"),
                    "idempotentHint": (not delete_again, "deleting an already empty runbook changes nothing"),
                    "openWorldHint": (False, "the runbook lives on this server"),
                },
                "post_status_update": {
                    "readOnlyHint": (not post.get("postId"), "it publishes a post"),
                    "destructiveHint": (post.get("postId") == second_post.get("postId"), "each post is added; none "
                                                                                         "is replaced"),
                    "idempotentHint": (post.get("postId") == second_post.get("postId"), "every call publishes a new "
                                                                                        "post"),
                    "openWorldHint": (True, "customers read the public status page"),
                },
            }

        return wire.run_sync(run)

    given = call_learner(ops_annotations)
    require(isinstance(given, dict), "dict", type(given).__name__)
    unknown = sorted(str(name) for name in set(given) - set(ops.TOOL_NAMES))
    require(not unknown, "dict", f"unknown name(s) {', '.join(unknown)}", f"the names are {', '.join(ops.TOOL_NAMES)}")
    for name, value in given.items():
        require(isinstance(value, (ToolAnnotations, dict)), "dict", type(value).__name__, f"for {name}")
        if isinstance(value, dict):  # a ToolAnnotations has checked its own fields; a dict is taken as sent
            odd = {hint: sent for hint, sent in value.items() if hint in host.HINTS and not isinstance(sent, bool)}
            require(not odd, "dict", lambda: f"{name}: {json.dumps(odd)}", "true or false, not a string or number")
    try:
        server = ops.build_server(annotations=given)
    except Exception as error:  # e.g. a dict with a value that is not a boolean
        raise fail("dict", f"{type(error).__name__}: {quoted(error, 120)}", "values the SDK accepts") from None
    seen = probe(server)
    truth = observed_hints()
    rule_of = {"readOnlyHint": "read_only", "destructiveHint": "destructive", "idempotentHint": "idempotent",
               "openWorldHint": "open_world"}
    for name in ops.TOOL_NAMES:
        sent = seen.tool(name).get("annotations") or {}
        effective = host.effective_hints(sent)
        require(not (effective["readOnlyHint"] and sent.get("destructiveHint") is True), "consistent",
                json.dumps({k: v for k, v in sent.items() if k != "title"}), name)
    for hint in ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"):
        for name in ops.TOOL_NAMES:
            if hint not in truth[name]:
                continue
            honest, why = truth[name][hint]
            sent = seen.tool(name).get("annotations") or {}
            if host.effective_hints(sent)[hint] != honest:
                found = (f"absent, which a host reads as {json.dumps(host.DEFAULTS[hint])}" if sent.get(hint) is None
                         else json.dumps(sent[hint]))
                raise fail(rule_of[hint], found, f"{name} with {hint} {json.dumps(honest)}: {why}")
    return "a host now reads one read-only tool, one additive and idempotent, one destructive, one open-world"


# --- 4.2 the team's confirmation policy ---------------------------------------------------------------

RULES_4_2 = spec(
    ("decision", "return `host.Decision(ask, reason)` for every call, with `ask` a bool and a reason of at "
                 "least three words that says why: an untrusted server, a trusted read that stays inside, and "
                 "every other trusted call each get reasons of their own (never a bare code such as 'rule 3')",
     "every decision's type and reason; the reasons given under each of the three outcomes compared"),
    ("untrusted", "from a server that is not trusted, ask before every call, whatever its annotations say",
     "a lying server in a real host, and every combination of hints with trusted=False"),
    ("inside_reads", "from a trusted server, run without asking a tool that only reads and stays inside the "
                     "server (`readOnlyHint` true, `openWorldHint` false), whatever `destructiveHint` says (the "
                     "schema gives it a meaning only when `readOnlyHint` is false)",
     "trusted read-only tools of the incidents server, and every combination of hints, read-only tools that "
     "also say destructiveHint true among them"),
    ("ask_else", "from a trusted server, ask before everything else",
     "changes, reads that reach outside, and every other combination of hints"),
    ("defaults", "read an absent hint as its default (`host.effective_hints` fills them in)",
     "servers that send no annotations or leave hints out, and every combination with hints absent"),
)

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


_SCENARIO: list[tuple[str, str, dict, str]] = [
    ("drafts", "tidy_drafts", {}, "an untrusted server's annotations are ignored"),
    ("drafts", "list_drafts", {}, "every call to an untrusted server asks, even one labelled read-only"),
    ("ops", "delete_runbook", {"service": "search"}, "it sends no annotations: an absent destructiveHint means true"),
    ("ops", "get_service_status", {"service": "search"}, "it sends no annotations: an absent readOnlyHint means false"),
    ("incidents", "add_incident_note", {"incidentId": "INC-101", "note": "Checked.",
                                        "requestId": "5a3e1c9b-7f2d-4b8e-a6c4-1d9f8e7b6a50"},
     "it adds data: only reads may run without asking"),
    ("weather", "get_daily_forecast", {"city": "Oslo", "days": 1}, "read-only, but it reaches outside: openWorldHint true"),
    ("status", "check_vendor_status", {"vendor": "acquirer"}, "read-only, but an absent openWorldHint means true"),
    ("incidents", "get_incident", {"incidentId": "INC-101"},
     "a read that stays inside; asking before every read trains people to click yes"),
    ("incidents", "search_incidents", {}, "a read that stays inside"),
]


def _decide(team_policy: Any, annotations: dict, trusted: bool) -> host.Decision:
    decision = call_learner(team_policy, dict(annotations), trusted)
    require(isinstance(decision, host.Decision), "decision", type(decision).__name__)
    require(isinstance(decision.reason, str) and len(re.findall(r"[^\W\d_]+", decision.reason)) >= 3, "decision",
            repr(decision.reason), "a reason of at least three words")
    require(isinstance(decision.ask, bool), "decision", repr(decision.ask), "ask must be True or False")
    return decision


def _outcome_of(annotations: dict, trusted: bool) -> str:
    """Which of the team's three outcomes a call has: untrusted, a trusted read inside, any other trusted call."""
    if not trusted:
        return "an untrusted server"
    hints = host.effective_hints(annotations)
    return "a trusted read inside" if hints["readOnlyHint"] and not hints["openWorldHint"] else "another trusted call"


@checker("4.2", RULES_4_2)
def ex_04_2(team_policy) -> str:
    """Check the team's policy in a host that calls five servers, then on every combination of hints."""

    def team_rule(annotations: dict, trusted: bool) -> tuple[bool, str]:
        """(ask?, which rule decides) under the team's rules as the exercise states them."""
        if not trusted:
            return True, "untrusted"
        hints = host.effective_hints(annotations)
        if hints["readOnlyHint"] and not hints["openWorldHint"]:
            return False, "inside_reads"
        relies_on_default = any(annotations.get(hint) is None for hint in ("readOnlyHint", "openWorldHint"))
        return True, "defaults" if relies_on_default else "ask_else"

    servers = _servers()
    listed = {label: {t["name"]: t for t in probe(server).tools} for label, server in servers.items()}
    for label, tool, _, _ in _SCENARIO:  # call it once per case first: a crash or a wrong type fails here
        _decide(team_policy, host.annotations_of(listed[label][tool]), label in TRUSTED)
    agent = host.Host(lambda annotations, trusted: _decide(team_policy, annotations, trusted), trusted=TRUSTED,
                      person=host.person(default=False), echo=False)

    async def run() -> list[str]:
        for label, tool, arguments, _ in _SCENARIO:
            async with agent.connect(label, servers[label]) as session:
                await session.call(tool, arguments)
        async with wire.connect(servers["drafts"]) as client:
            return (await client.call_tool("list_drafts", {})).structured_content["drafts"]

    drafts_left = wire.run_sync(run)
    for (label, tool, _, why), entry in zip(_SCENARIO, agent.log):
        should_ask, rule = team_rule(host.annotations_of(listed[label][tool]), label in TRUSTED)
        if entry.decision.ask != should_ask:
            found = "it ran without asking" if should_ask else "the host asked first"
            if tool == "tidy_drafts":
                found += f" and deleted all {3 - len(drafts_left)} drafts"
            trust = "trusted" if label in TRUSTED else "untrusted"
            raise fail(rule, found, f"{label}.{tool} to {'ask first' if should_ask else 'run without asking'}: "
                                    f"{trust}, {why}")
    combinations, reasons = set(), {}
    for values in itertools.product((True, False, None), repeat=4):
        annotations = {hint: value for hint, value in zip(host.HINTS, values) if value is not None}
        for extra in ({}, {"title": "A tool"}):
            for trusted in (True, False):
                should_ask, rule = team_rule(annotations, trusted)
                decision = _decide(team_policy, {**extra, **annotations}, trusted)
                reasons.setdefault(decision.reason.strip(), set()).add(_outcome_of(annotations, trusted))
                combinations.add((values, trusted))  # each also tried with and without a title
                if decision.ask != should_ask:
                    raise fail(rule, "it ran without asking" if should_ask else "it asked first",
                               f"{'a trusted' if trusted else 'an untrusted'} tool with annotations "
                               f"{json.dumps(annotations) if annotations else 'none'} to "
                               f"{'ask first' if should_ask else 'run without asking'}")
    shared = next(((reason, sorted(kinds)) for reason, kinds in reasons.items() if len(kinds) > 1), None)
    require(shared is None, "decision", lambda: f"the reason {shared[0]!r} for {' and for '.join(shared[1])}",
            "each outcome its own reason")
    return (f"trusted inside-only reads ran without asking; every other call asked first ({len(combinations)} "
            "combinations of hints and trust, each with and without a title), and the lying tidy_drafts deleted "
            "nothing")
