"""Checkers and hints for lesson 09: live and evolving.

Each checker judges against a written spec (`RULES_9_N`) that the exercise text states word for word.
9.1's verdicts are `contract.diff`'s, computed here on the real v1 listing with each proposal applied;
9.2 diffs the learner's v2 against v1, replays v1's recorded calls against it and compares with v1's own
answers, then drives the new feature; 9.3 runs the learner's elicitation callback in real clients of
both protocol eras against servers that ask questions with differently named fields.
"""

import inspect
import json
from typing import Any

from course_lib import contract, wire
from course_lib.checks.core import (build_server, call_learner, checker, condensed, fail, learner_coroutine, probe,
                                    require, require_deliberate, result_text, quoted, shown, spec, watched)
from course_lib.errors import CheckFailed, ExerciseNotDone

HINTS: dict[str, tuple[str, ...]] = {
    "9.1": (
        "Ask of each change: which way do the values flow? Arguments flow from the client to the server; results "
        "flow back. A v1 client keeps sending what it always sent and keeps reading what it always read.",
        "For arguments: anything that refuses a value v1 clients may send (a lower maximum, a shorter maxLength, "
        "an argument made required) breaks them, and so does a changed default. For results: anything v1 clients "
        "could not receive before (a new enum value, a missing field) breaks their code; an extra field does not.",
        "A rename is a removal plus a new tool. A reworded description is safe for code (the model reads it, so "
        "re-run your evals). Then check yourself: contract.diff(v1, evolving.proposed(v1, proposal)).",
    ),
    "9.2": (
        "Run contract.diff(await wire.list_tools(evolving.build_v1()), await wire.list_tools(build_helpdesk_v2())) "
        "and look at the breaking rows: each one is something the draft changed that v1 clients rely on.",
        "Three fixes: priority must be optional (a default of None), the limit keeps v1's maximum 50 "
        "(evolving.limit_up_to(50)), and the result keeps v1's `total` (evolving.TicketPageV1). Keep every "
        "other definition exactly as v1 has it, annotations included.",
        "priority: Literal['low', 'normal', 'high', 'urgent'] | None = None; filter with "
        "`priority in (None, t.priority)` before slicing, and count `total` from the filtered list. "
        "reopen_ticket raises ToolError for an unknown id (copy find() from the draft).",
    ),
    "9.3": (
        "The callback gets `params.message` (the question) and `params.requested_schema` (the form). Show the "
        "question to the person: answer = person(params.message). Then turn their answer into an ElicitResult.",
        "None -> ElicitResult(action='cancel'); False -> ElicitResult(action='decline'); otherwise find the form's "
        "one field: name, field = next(iter(params.requested_schema['properties'].items())).",
        "True -> ElicitResult(action='accept', content={name: True}); a string -> accept with {name: answer} if "
        "answer in field.get('enum', []), else decline; decline too when the answer does not fit the field's "
        "type (True to a choice, a string to a boolean). Call person() on every question, and never write "
        "'confirm' or 'team' in your code: the check uses forms whose fields have other names.",
    ),
}


# --- 9.1 classify proposed changes ---------------------------------------------------------------------

RULES_9_1 = spec(
    ("dict", 'return a dict with one verdict, "breaking" or "safe" (case and surrounding spaces do not '
             'matter), for each proposal letter "A" to "J", and no other keys',
     "the returned keys (exactly) and values (stripped, lower-cased)"),
    ("arguments", "judge a change to an argument by what v1 clients send: breaking when v2 accepts fewer values, "
                  "needs an argument they do not send, or changes a default they rely on; safe when it accepts at "
                  "least as much",
     "contract.diff of v1's real definitions against the same definitions with the proposal applied"),
    ("results", "judge a change to a result by what v1 clients read: breaking when v2 may return a value v1 never "
                "returned or leaves out a field v1 always returned; safe when it only adds a field",
     "contract.diff, as above"),
    ("tools", "call a removed or renamed tool breaking, and a reworded description safe",
     "contract.diff, as above"),
    ("own", "decide every verdict yourself, before any diff: classify_proposals calls neither contract.diff (the "
            "check's own answer) nor evolving.proposed",
     "calls of both counted while classify_proposals runs"),
)

DIFF_PARTS = ("diff", "_compare_tool", "_compare_value", "_compare_object", "_facts", "_judge")
"""`contract.diff` and what it is made of: 9.1's truth. An answer that calls any of them (or `evolving.proposed`,
which applies a proposal) asks the check's own answer instead of deciding. Each is forwarded
(`boundary.FORWARDED`): in a graded kernel only a stub of it exists, and every call the exercise's cells make, when
they run or in the check, is counted in the grader."""


def _rule_of(change: contract.Change) -> str:
    """Which rule of 9.1 a change falls under, from what the diff says changed."""
    what = change.what
    if "output" in what:
        return "results"
    if what.startswith(("argument", "new required argument", "new optional argument", "arguments")):
        return "arguments"
    return "tools"


def _oracle_in_cells(fn: Any) -> str:
    """Across the grading boundary: "contract.diff in your code" when a cell the grader sent the kernel before this
    check names a part of 9.1's truth (`DIFF_PARTS`, `proposed`) as an attribute or an imported name, so verdicts
    computed from it when a cell ran (and returned as a dict later) count too; "" otherwise, and in process. Read
    from the code the grader sent, never from the kernel."""
    import ast

    from course_lib.workbook.boundary import RemoteFunction

    parts = {*DIFF_PARTS, "proposed"}
    for cell in fn._endpoint.ran if isinstance(fn, RemoteFunction) else []:
        try:
            tree = ast.parse(cell)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in parts:
                return f"{shown(ast.unparse(node), 60)} in your code"
            if isinstance(node, ast.alias) and node.name.split(".")[-1] in parts:
                return f"{shown(node.name, 60)} imported in your code"
    return ""


@checker("9.1", RULES_9_1)
def ex_09_1(classify_proposals) -> str:
    """Check each verdict against contract.diff on v1's definitions with that proposal applied."""
    from course_lib.servers import evolving

    with watched("course_lib.contract", *DIFF_PARTS) as diffed, \
            watched("course_lib.servers.evolving", "proposed") as applied:
        given = call_learner(classify_proposals)
    asked = sorted(set(diffed + applied))
    called = ', '.join(n for n in asked if '._' not in n) or (asked or [''])[0]
    before = min(diffed.before, 1000) + min(applied.before, 1000)
    require(not asked, "own", lambda: (  # the cells' calls alone: a cell's, not necessarily the answer's
        f"your notebook's cells called {called} before this check ({before} time(s)), none while it ran"
        if before and len(diffed) + len(applied) <= before else f"it called {called}"
        + (f" ({diffed.before} time(s) while your cells ran)" if diffed.before else "")))
    named = _oracle_in_cells(classify_proposals)
    require(not named, "own", named)
    require(isinstance(given, dict), "dict", type(given).__name__)
    letters = [proposal.letter for proposal in evolving.PROPOSALS]
    verdicts = dict(given)
    missing = [letter for letter in letters if letter not in verdicts]
    extra = sorted(repr(key) for key in verdicts if key not in letters)
    require(not missing, "dict", f"no verdict for {', '.join(missing)}")
    require(not extra, "dict", f"other key(s) {', '.join(extra)}")
    for letter in letters:
        value = verdicts[letter]
        require(isinstance(value, str) and value.strip().lower() in ("breaking", "safe"), "dict",
                f"{letter}: {value!r}")
    v1 = probe(evolving.build_v1()).tools
    tally = {"breaking": 0, "safe": 0}
    for proposal in evolving.PROPOSALS:
        changes = contract.diff(v1, evolving.proposed(v1, proposal))
        deciding = [change for change in changes if change.breaking] or changes
        truth = "breaking" if any(change.breaking for change in changes) else "safe"
        tally[truth] += 1
        said = verdicts[proposal.letter].strip().lower()
        if said != truth:
            change = deciding[0]
            raise fail(_rule_of(change), f"{proposal.letter} ({proposal.says}) called {said}",
                       f"{proposal.letter} is {truth}: {change.what}, so {change.why}")
    return (f"all {len(letters)} verdicts match contract.diff on the real v1 definitions: {tally['breaking']} "
            f"breaking, {tally['safe']} safe")


# --- 9.2 a v2 that adds a feature without breaking v1 clients -------------------------------------------

RULES_9_2 = spec(
    ("fresh", "return a new `MCPServer` with its own tickets each time it is built",
     "two builds: a ticket created on one must not exist on the other"),
    ("contract", "change nothing a v1 client relies on: `contract.diff` from `evolving.build_v1()` finds no "
                 "breaking change",
     "contract.diff of the real listings"),
    ("descriptions", "keep the description of every v1 tool exactly as v1 has it (a model reads it, and whether "
                     "new wording changes what a model does is a prediction only your evals can check)",
     "each listed description compared with v1's"),
    ("replay", "answer every recorded v1 call (`evolving.V1_CALLS`) as v1 does, and keep every v1 tool doing what "
               "v1's description says (closing a closed ticket changes nothing)",
     "contract.replay against v1's output schemas, and each result compared with v1's own answer; then a longer "
     "run of v1 calls on fresh builds of both (a ticket closed twice, an unknown id, a created ticket closed "
     "twice, reads and searches), each answer compared with v1's: error or not, and the structured result"),
    ("filter", "let `search_tickets` take an optional `priority` (`low`, `normal`, `high` or `urgent`) that keeps "
               "only the tickets with that priority, and counts only those in `total`",
     "the schema: v1's parameters and an optional priority, nothing else; tickets of every priority created "
     "through create_ticket, then searched with each priority, with and without a limit, and with no priority "
     "(which must answer as v1 does)"),
    ("reopen", "add a tool `reopen_ticket(ticket_id)` that makes a closed ticket open again and returns it",
     "the schema: ticket_id and nothing else; a ticket closed, reopened, then read with get_ticket; a second "
     "ticket too"),
    ("describe", "give `reopen_ticket` a description (its description is what a model is given to choose tools by)",
     "the listed definition"),
    ("unknown", "answer `reopen_ticket` for a ticket that does not exist with a tool error (a `ToolError`) that "
                "names the ticket, not a crash",
     "reopen_ticket on two unknown ids"),
)

_V1_SESSION = [("close_ticket", {"ticket_id": "T-1", "resolution": "Paper tray cleaned."}),
               ("close_ticket", {"ticket_id": "T-1", "resolution": "Cleaned again."}),
               ("get_ticket", {"ticket_id": "T-1"}),
               ("close_ticket", {"ticket_id": "T-404", "resolution": "Nothing to do."}),
               ("create_ticket", {"title": "Printer toner low"}),
               ("close_ticket", {"ticket_id": "T-3", "resolution": "Toner replaced."}),
               ("close_ticket", {"ticket_id": "T-3", "resolution": "Toner replaced."}),
               ("search_tickets", {"query": "printer"}), ("get_ticket", {"ticket_id": "T-2"})]
"""A v1 client's session beyond the recorded calls: what v1's descriptions promise, closing twice included."""

_PRIORITIES = ("low", "normal", "high", "urgent")
_CREATED = [("Printer out of toner", "low"), ("Printer offline in room 4", "high"),
            ("Badge reader beeps", "urgent"), ("Printer driver missing", "high"),
            ("Printer queue stuck", "urgent"), ("Desk lamp broken", "low")]


def _structured(result: dict) -> Any:
    return result.get("structuredContent")


@checker("9.2", RULES_9_2)
def ex_09_2(build_helpdesk_v2) -> str:
    """Check a v2 by diff and replay against v1, then drive its priority filter and reopen_ticket."""
    from course_lib.servers import evolving

    first, second = build_server(build_helpdesk_v2), build_server(build_helpdesk_v2)
    made = probe(first, [("create_ticket", {"title": "Projector has no signal", "priority": "high"})]).results[0]
    made_id = (_structured(made) or {}).get("id")
    if isinstance(made_id, str) and made_id.startswith("T-"):
        elsewhere = probe(second, [("get_ticket", {"ticket_id": made_id})]).results[0]
        require(bool(elsewhere.get("isError")), "fresh", f"{made_id}, created on one build, was found on another",
                "each build starts with only T-1 and T-2")
    server, other = build_server(build_helpdesk_v2), build_server(build_helpdesk_v2)
    v1_tools = probe(evolving.build_v1()).tools
    v2_tools = probe(server).tools
    breaking = [change for change in contract.diff(v1_tools, v2_tools) if change.breaking]
    require(not breaking, "contract", lambda: "; ".join(f"{c.tool}: {c.what}" for c in breaking[:2]),
            f"{len(breaking)} breaking change(s)")

    v2_by_name = {tool["name"]: tool for tool in v2_tools}
    for tool in v1_tools:
        now = v2_by_name.get(tool["name"], {}).get("description", "")
        require(now == tool.get("description", ""), "descriptions", f"{tool['name']}: {shown(repr(now), 120)}",
                f"v1 says {shown(repr(tool.get('description', '')), 80)}")

    replayed = wire.run_sync(contract.replay, evolving.V1_CALLS, build_server(build_helpdesk_v2), v1_tools)
    for outcome in replayed:
        require(outcome.ok, "replay", f"{outcome.tool}({json.dumps(outcome.arguments)}): {shown(outcome.how, 140)}")
    theirs = probe(build_server(build_helpdesk_v2), list(evolving.V1_CALLS)).results
    ours = probe(evolving.build_v1(), list(evolving.V1_CALLS)).results
    for (name, arguments), got, want in zip(evolving.V1_CALLS, theirs, ours):
        require(_structured(got) == _structured(want), "replay",
                f"{name}({json.dumps(arguments)}) returned {shown(json.dumps(_structured(got)), 120)}",
                f"v1 returns {shown(json.dumps(_structured(want)), 120)}")
    theirs = probe(build_server(build_helpdesk_v2), _V1_SESSION).results
    ours = probe(evolving.build_v1(), _V1_SESSION).results
    for step, ((name, arguments), got, want) in enumerate(zip(_V1_SESSION, theirs, ours), 1):
        same = bool(got.get("isError")) == bool(want.get("isError")) and _structured(got) == _structured(want)
        require(same, "replay", lambda: f"{name}({json.dumps(arguments)}), call {step} of a fresh build's "
                                        f"session, answered {quoted(result_text(got), 100)}",
                "v1 answers " + ("with a tool error" if want.get("isError") else
                                 shown(json.dumps(_structured(want)), 100)))

    v1_search = set(next(t for t in v1_tools if t["name"] == "search_tickets")["inputSchema"]["properties"])
    search = v2_by_name.get("search_tickets", {}).get("inputSchema", {})
    added = sorted(set(search.get("properties", {})) - v1_search)
    require(added == ["priority"] and "priority" not in search.get("required", []), "filter",
            f"search_tickets adds {', '.join(added) or 'nothing'}" + (", priority required" if "priority" in
                                                                       search.get("required", []) else ""),
            "one new parameter, an optional priority")
    creates = [("create_ticket", {"title": title, "priority": priority}) for title, priority in _CREATED]
    # limit 20: every match fits, and v1 and a v2 that (wrongly) lowered v1's maximum of 50 both accept it, so a
    # broken limit is told under contract and replay, never as a broken filter (unseen11, M3)
    searches = [("search_tickets", {"query": "printer", "limit": 20})]
    searches += [("search_tickets", {"query": "printer", "priority": p, "limit": 20}) for p in _PRIORITIES]
    searches += [("search_tickets", {"query": "printer", "priority": "high", "limit": 1}),
                 ("search_tickets", {"query": "e", "priority": "low"}),
                 ("search_tickets", {"query": "printer", "priority": "critical"})]
    seen = probe(server, creates + searches).results
    v1_seen = probe(evolving.build_v1(), creates + searches[:1]).results
    for result in seen[:len(creates)]:
        require(not result.get("isError"), "replay", f"create_ticket failed: {quoted(result_text(result), 120)}")
    everything, by_priority = seen[len(creates)], seen[len(creates) + 1:len(creates) + 5]
    require(_structured(everything) == _structured(v1_seen[-1]), "filter",
            lambda: f"search_tickets without priority returned " + (
                f"an error: {quoted(condensed(result_text(everything)), 120)}" if everything.get("isError")
                else shown(json.dumps(_structured(everything)), 120)),
            "without priority it must answer as v1 does")
    own = None if everything.get("isError") else _structured(everything)
    all_printer = (own or _structured(v1_seen[-1]) or {}).get("tickets") or []
    for priority, result in zip(_PRIORITIES, by_priority):
        want = [t for t in all_printer if t["priority"] == priority]
        got = _structured(result) or {}
        require(not result.get("isError") and got.get("tickets") == want and got.get("total") == len(want),
                "filter", lambda: quoted(result_text(result), 160),
                f"priority={priority!r} to return {[t['id'] for t in want]} with total {len(want)}")
    limited = _structured(seen[len(creates) + 5]) or {}
    highs = [t for t in all_printer if t["priority"] == "high"]
    require(limited.get("tickets") == highs[:1] and limited.get("total") == len(highs), "filter",
            shown(json.dumps(limited), 160), f"priority='high', limit=1 to return {highs[0]['id']} with total "
                                             f"{len(highs)} (the count of all matches, not of the page)")
    lows = _structured(seen[len(creates) + 6]) or {}
    require([t["priority"] for t in lows.get("tickets", [])] == ["low", "low"], "filter", shown(json.dumps(lows), 160),
            "query 'e' with priority='low' to return the two low tickets")
    require(bool(seen[-1].get("isError")), "filter", "priority='critical' was accepted",
            "only low, normal, high or urgent")

    created_id = next(t["id"] for t in all_printer if t["title"] == "Printer queue stuck")
    fresh = probe(other, [("get_ticket", {"ticket_id": created_id})]).results[0]
    require(bool(fresh.get("isError")), "fresh", f"{created_id}, created on another build, was found",
            "a second build must start with only T-1 and T-2")

    plan = [("close_ticket", {"ticket_id": "T-2", "resolution": "Router replaced."}),
            ("reopen_ticket", {"ticket_id": "T-2"}), ("get_ticket", {"ticket_id": "T-2"}),
            ("close_ticket", {"ticket_id": created_id, "resolution": "Queue cleared."}),
            ("reopen_ticket", {"ticket_id": created_id}), ("get_ticket", {"ticket_id": created_id}),
            ("get_ticket", {"ticket_id": "T-1"})]
    listed = probe(server, plan)
    require("reopen_ticket" in listed.names, "reopen", ", ".join(listed.names), "no tool reopen_ticket")
    params = sorted(listed.tool("reopen_ticket")["inputSchema"].get("properties", {}))
    require(params == ["ticket_id"], "reopen", f"reopen_ticket({', '.join(params)})", "it takes ticket_id only")
    require(bool(listed.tool("reopen_ticket").get("description", "").strip()), "describe", "an empty description")
    for closed, reopened, read, ticket in ((0, 1, 2, "T-2"), (3, 4, 5, created_id)):
        got, after = listed.results[reopened], listed.results[read]
        require(not got.get("isError") and (_structured(got) or {}).get("status") == "open"
                and (_structured(got) or {}).get("id") == ticket, "reopen", quoted(result_text(got), 140),
                f"reopen_ticket({ticket!r}) to return the ticket, open")
        require((_structured(after) or {}).get("status") == "open", "reopen",
                f"get_ticket({ticket!r}) after reopening says {shown(json.dumps(_structured(after)), 100)}")
    require((_structured(listed.results[-1]) or {}).get("status") == "open", "reopen",
            "T-1 changed", "reopening one ticket leaves the others as they were")
    for unknown in ("T-99", "T-1000"):
        result = probe(server, [("reopen_ticket", {"ticket_id": unknown})]).results[0]
        require_deliberate(result, "reopen_ticket", "unknown", f"reopen_ticket({unknown!r})")
        require(unknown in result_text(result), "unknown", quoted(result_text(result), 140),
                f"the message names {unknown}")
    return ("no breaking change from v1, every recorded v1 call answered as v1 does, the priority filter and "
            "reopen_ticket work, and each build has its own tickets")


# --- 9.3 answer the desk's questions -----------------------------------------------------------------------

RULES_9_3 = spec(
    ("callback", "return an async function `(ctx, params)` that gives back an `mcp_types.ElicitResult` for every "
                 "question",
     "the callback called directly, then in real clients"),
    ("ask", "ask the person every time a question arrives, by calling `person(params.message)` once per "
            "question, even a question asked before (no answer is remembered)",
     "a scripted person that records the messages it was shown; the same question asked twice of one callback"),
    ("cancel", "answer `cancel` when the person closed the dialog (`person` returned None)",
     "what the server received, for a yes/no question and for a choice, and after an answer of yes"),
    ("decline", "answer `decline` when the person said no (`person` returned False)",
     "what the server received"),
    ("yes", "when the person said yes (True) to a form whose one field is a boolean, accept with that field set "
            "to true",
     "what the server received, and the callback's own content: exactly that field, the JSON boolean true"),
    ("choice", "when the person named an option (a string) that the form's one field offers in its `enum`, "
               "exactly as written there, accept with the field set to it",
     "an offered option, on two forms; the callback's own content: exactly that field, the option's string"),
    ("misfit", "decline every answer that does not fit the form: yes to a choice, an option the `enum` does not "
               "offer (`\"IT\"` for `\"it\"` included), any string (`\"true\"` too) to a yes/no question",
     "each kind of misfit, on two servers: an option upper-cased, capitalised, with a space before or after, "
     "cut to a prefix, lengthened, empty; 'true', 'yes', '' and an option to a yes/no form"),
    ("schema", "take the field's name and its options from `params.requested_schema`, never assume them",
     "two servers whose forms name their fields differently, the second with field titles unlike the names "
     "('Support queue' for queue, 'Go ahead' for approved)"),
    ("eras", "work in both protocol eras, 2026-07-28 and 2025-11-25",
     "every question asked through a 2026-07-28 client and a 2025-11-25 client"),
)


def _asking_servers() -> list[tuple[Any, str, str, tuple[str, ...]]]:
    """Two servers that each ask a yes/no question and a choice, with different field names (the second
    server's fields have titles unlike their names).

    Each entry: (server, yes/no tool, choice tool, the choice's options). Every tool returns what it
    received: the person's action and, when accepted, the value of the form's field. (This module does
    not postpone annotations, so the SDK can read these local types.)
    """
    from typing import Annotated, Literal

    from mcp.server.mcpserver import AcceptedElicitation, Elicit, ElicitationResult, Resolve
    from pydantic import BaseModel, Field

    from course_lib.servers.base import new_server

    def outcome(answer: Any, field: str) -> dict:
        if isinstance(answer, AcceptedElicitation):
            return {"action": "accept", "value": getattr(answer.data, field)}
        return {"action": answer.action, "value": None}

    class Confirm(BaseModel):
        confirm: bool = Field(description="Send it?")

    class Team(BaseModel):
        team: Literal["it", "facilities", "finance"] = Field(description="Which team handles it?")

    class Approval(BaseModel):  # ops titles its fields: a title is what a dialog shows, not the field's name
        approved: bool = Field(title="Go ahead", description="Restart now?")

    class Queue(BaseModel):
        queue: Literal["tier1", "tier2", "vendor"] = Field(title="Support queue", description="Where should it go?")

    def ask_send(ticket_id: str) -> Elicit[Confirm]:
        return Elicit(f"Send the reply on {ticket_id}?", Confirm)

    def ask_team(title: str) -> Elicit[Team]:
        return Elicit(f"Which team should handle '{title}'?", Team)

    def ask_restart(service: str) -> Elicit[Approval]:
        return Elicit(f"Restart {service} now? Users will be signed out.", Approval)

    def ask_queue(ticket_id: str) -> Elicit[Queue]:
        return Elicit(f"Which queue should {ticket_id} go to?", Queue)

    desk, ops = new_server("desk"), new_server("ops")

    @desk.tool(description="Send a reply on a ticket once the person confirms.")
    def send_reply(ticket_id: str, answer: Annotated[ElicitationResult[Confirm], Resolve(ask_send)]) -> dict[str, Any]:
        return outcome(answer, "confirm")

    @desk.tool(description="Open a ticket with the team the person picks.")
    def create_ticket(title: str, answer: Annotated[ElicitationResult[Team], Resolve(ask_team)]) -> dict[str, Any]:
        return outcome(answer, "team")

    @ops.tool(description="Restart a service once the person approves.")
    def restart_service(service: str, answer: Annotated[ElicitationResult[Approval], Resolve(ask_restart)]) -> dict[str, Any]:
        return outcome(answer, "approved")

    @ops.tool(description="Route a ticket to the queue the person picks.")
    def route_ticket(ticket_id: str, answer: Annotated[ElicitationResult[Queue], Resolve(ask_queue)]) -> dict[str, Any]:
        return outcome(answer, "queue")

    return [(desk, "send_reply", "create_ticket", ("it", "facilities", "finance")),
            (ops, "restart_service", "route_ticket", ("tier1", "tier2", "vendor"))]


_ARGUMENTS = {"send_reply": {"ticket_id": "T-4"}, "create_ticket": {"title": "Heating is off"},
              "restart_service": {"service": "billing"}, "route_ticket": {"ticket_id": "T-9"}}


class _Person:
    """A scripted person: always gives `answer`, and remembers every question shown."""

    def __init__(self, answer: Any):
        self.answer, self.shown = answer, []

    def __call__(self, message: str) -> Any:
        self.shown.append(message)
        return self.answer


class _Script(_Person):
    """A scripted person whose answers change: the next of `answers` each time a question is shown."""

    def __init__(self, answers: list[Any]):
        super().__init__(None)
        self.answers = list(answers)

    def __call__(self, message: str) -> Any:
        self.shown.append(message)
        return self.answers[len(self.shown) - 1] if len(self.shown) <= len(self.answers) else None


_QUESTIONS = {"send_reply": "Send the reply on T-4?", "create_ticket": "Which team should handle 'Heating is off'?",
              "restart_service": "Restart billing now? Users will be signed out.",
              "route_ticket": "Which queue should T-9 go to?"}


def _expected(answer: Any, boolean_form: bool, options: tuple[str, ...]) -> tuple[str, tuple[str, Any]]:
    """(the rule that decides, what the server must receive) for the person's answer to one form."""
    if answer is None:
        return "cancel", ("cancel", None)
    if answer is False:
        return "decline", ("decline", None)
    if answer is True and boolean_form:
        return "yes", ("accept", True)
    if isinstance(answer, str) and not boolean_form and answer in options:
        return "choice", ("accept", answer)
    return "misfit", ("decline", None)


def _answers(options: tuple[str, ...]) -> tuple[tuple[bool, Any], ...]:
    """(asked on the yes/no form?, the person's answer): each rule, and each kind of answer that fits no form."""
    offered = options[1]
    # strings that are not the option as written: its case, spaces around it, a prefix, a longer word, nothing
    near = (offered.upper(), offered.capitalize(), f" {offered}", f"{offered} ", offered[:3], f"{offered}s", "")
    return ((True, True), (True, False), (True, None), (True, "true"), (True, "yes"), (True, ""), (True, offered),
            (False, offered), (False, "legal"), *((False, text) for text in near), (False, True), (False, False),
            (False, None))


@checker("9.3", RULES_9_3)
def ex_09_3(make_callback) -> str:
    """Run the learner's callback in real clients of both eras against two servers that ask questions."""
    import mcp_types

    callback = learner_coroutine(call_learner(make_callback, _Person(True)), "callback")
    params = mcp_types.ElicitRequestFormParams(
        message="Send it?", requested_schema={"type": "object", "properties": {"ok": {"type": "boolean"}},
                                              "required": ["ok"]})
    first = wire.run_sync(callback, None, params)
    require(isinstance(first, mcp_types.ElicitResult), "callback", type(first).__name__)

    cases = 0
    for server, yes_tool, choice_tool, options in _asking_servers():
        for era in wire.ERAS:
            for boolean_form, answer in _answers(options):
                tool = yes_tool if boolean_form else choice_tool
                rule, want = _expected(answer, boolean_form, options)
                if rule in ("yes", "choice") and tool in ("restart_service", "route_ticket"):
                    rule = "schema"
                person = _Person(answer)
                situation = (f"{tool} in {era}, the person answering {answer!r}"
                             + (f" to a form whose options are {', '.join(options)}" if not boolean_form else
                                " to a yes/no form"))
                (result,), (given,) = _ask(make_callback, person, server, era, [tool], situation)
                _judge_field_name(given, situation)
                _judge_answer(result, person, tool, rule, want, situation)
                _judge_content(given, rule, want, situation)
                cases += 1
        # one callback, the same question twice: the person is asked twice (a retry is a new request)
        person = _Person(True)
        situation = f"{yes_tool} called twice through one client and one callback"
        again, _given = _ask(make_callback, person, server, wire.ERAS[0], [yes_tool, yes_tool], situation)
        require(len(person.shown) == 2, "ask", f"the person was asked {len(person.shown)} time(s)", situation)
        for result in again:
            require((_structured(result) or {}).get("action") == "accept", "ask",
                    lambda: f"the server received {shown(json.dumps(_structured(result)), 80)}", situation)
        # one callback, answers that change: only what the person says now decides, never an earlier answer
        said = [True, None, False, None, True, False]
        situation = (f"{yes_tool} called {len(said)} times through one callback, the person answering "
                     f"{', '.join(map(repr, said))} in turn")
        script = _Script(said)
        results, _given = _ask(make_callback, script, server, wire.ERAS[0], [yes_tool] * len(said), situation)
        if len(script.shown) != len(said):  # an earlier answer reused: told as that, not as the answers it gave
            require(False, "ask", f"the person was asked {len(script.shown)} time(s) for {len(said)} questions, so "
                                  "an earlier answer was given again", situation)
            continue
        for turn, (answer, result) in enumerate(zip(said, results), 1):
            rule, want = _expected(answer, True, options)
            got = _structured(result) or {}
            require(got.get("action") == want[0], rule, lambda: f"answer {turn} ({answer!r}): the server received "
                                                                f"{shown(json.dumps(got), 80)}", situation)
    return (f"{cases} questions answered as the person decided (accept, decline, cancel, and decline for answers "
            "that fit no form) on two servers with different forms, in both protocol eras; every question asked")


def _ask(make_callback: Any, person: Any, server: Any, era: str, tools: list[str],
         situation: str) -> tuple[list[dict], list[tuple[Any, Any]]]:
    """Call `tools` through one client whose elicitation callback is the learner's, built for `person`:
    (the wire results, (the form it was given, the ElicitResult it returned) per question)."""
    import mcp_types

    callback = learner_coroutine(call_learner(make_callback, person), "callback")
    returned: list[Any] = []
    forms: list[Any] = []

    async def recorded(ctx: Any, params: Any) -> Any:
        forms.append(params)
        returned.append(await callback(ctx, params))
        if not isinstance(returned[-1], mcp_types.ElicitResult):
            raise TypeError(type(returned[-1]).__name__)
        return returned[-1]

    async def run() -> list[dict]:
        async with wire.connect(server, era, elicitation_callback=recorded) as client:
            return [wire.dump(await client.call_tool(name, _ARGUMENTS[name])) for name in tools]

    try:
        return wire.run_sync(run), list(zip(forms, returned))
    except (CheckFailed, ExerciseNotDone):
        raise
    except Exception as error:
        odd = [item for item in returned if not isinstance(item, mcp_types.ElicitResult)]
        if odd:  # the call failed because of what the callback returned: that is the one fault
            raise fail("callback", f"it returned {type(odd[0]).__name__} {shown(repr(odd[0]), 60)}",
                       situation) from None
        raise fail("eras", f"the call failed: {type(error).__name__}: {quoted(error, 120)}", situation) from None


def _judge_content(given: tuple[Any, Any], rule: str, want: tuple[str, Any], situation: str) -> None:
    """The callback's own ElicitResult, not what the server made of it: an accept holds exactly the form's one
    field with the value and JSON type the form asks for (true, not "true" or 1, which lax validation coerces)."""
    form, returned = given
    if want[0] != "accept":
        return
    (name,) = form.requested_schema["properties"]
    content = returned.content or {}
    value = content.get(name)
    right = list(content) == [name] and type(value) is type(want[1]) and value == want[1]
    require(right, rule, lambda: f"the callback accepted with {json.dumps(content)}",
            f"{situation}: content {json.dumps({name: want[1]})}, the type the form asks for")


def _judge_field_name(given: tuple[Any, Any], situation: str) -> None:
    """An accept whose content leaves out the form's one field assumed a field name (unseen11, M4: "team" on a
    yes/no form): told under `schema`, not under the rule of the answer the server then could not use."""
    form, returned = given
    (name,) = form.requested_schema["properties"]
    content = getattr(returned, "content", None) or {}
    if getattr(returned, "action", None) == "accept" and content and name not in content:
        raise fail("schema", f"the callback accepted with {shown(json.dumps(content, default=repr), 80)}, a field "
                             f"the form does not have (its one field is {name!r})", situation)


def _judge_answer(result: dict, person: Any, tool: str, rule: str, want: tuple[str, Any], situation: str) -> None:
    require(len(person.shown) == 1, "ask",
            f"the person was asked {len(person.shown)} time(s)" + (
                f": {shown(person.shown[0], 80)!r}" if person.shown else ""), situation)
    require(person.shown[0] == _QUESTIONS[tool], "ask", f"the person was shown {shown(person.shown[0], 80)!r}",
            f"{situation}: show them params.message, {_QUESTIONS[tool]!r}")
    if result.get("isError"):
        raise fail(rule, f"the server could not use the answer: {quoted(result_text(result), 140)}", situation)
    got = _structured(result) or {}
    if (got.get("action"), got.get("value")) != want:
        found = f"the server received {got.get('action')}" + (
            f" with {got.get('value')!r}" if got.get("action") == "accept" else "")
        raise fail(rule, found, f"{situation}: expected {want[0]}" + (f" with {want[1]!r}" if want[0] == "accept"
                                                                     else ""))
