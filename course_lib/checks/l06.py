"""Checkers and hints for lesson 06: what tools cost."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from course_lib import cost, docstrings, review, tokens, wire
from course_lib.checks import prose
from course_lib.checks.core import (build_server, call_learner, checker, condensed, fail, learner_source, probe,
                                    require, result_text, quoted, shown, spec)
from course_lib.checks.schemas import resolve
from course_lib.servers import clock, weather, workspace

HINTS: dict[str, tuple[str, ...]] = {
    "6.1": (
        "Most of the bloat is prose that repeats what the schema already says. Keep the sentences a model "
        "needs to choose (what it returns, when to use it, when not) and let the schema carry the rest.",
        "Delete the marketing sentences and the Args:/Returns: sections. Parameter descriptions that only "
        "restate an enum, bounds or a default can go: the schema already shows them.",
        "A lean version: description 'Support tickets whose title contains every word of the query.' + "
        "'Use it to find tickets about a problem a customer reported.' + 'Do not use it to read one ticket "
        "whose id you know; call get_ticket.'; query keeps min_length=2, max_length=100 and a short "
        "description; status stays Literal['open', 'pending', 'closed'] = 'open'; limit keeps ge=1, le=20, "
        "default 5.",
    ),
    "6.2": (
        "A set has no order of its own: it iterates in an order that depends on the strings' hashes, and "
        "Python seeds those hashes differently in every process.",
        "Remove the duplicates without a set: dict.fromkeys(core + extras) keeps the first time each name "
        "appears, in order. sorted(...) is stable too, but does not keep the core tools first.",
        "workspace.register(server, dict.fromkeys(core + extras)) lists get_ticket, search_tickets, "
        "add_ticket_comment, search_messages, read_message, list_events in every process.",
    ),
    "6.3": (
        "A host sends every definition of every connected server on every turn, as the model reads it: name, "
        "description and input schema (lesson 06's three slots; the output schema is not one), and each server "
        "sends its own, even when two servers share a tool name. List each server's tools, count each "
        "definition in the encoding you were given, add them up.",
        "wire.run_sync(wire.list_tools, server) lists a server's tools from plain (non-async) code; "
        "cost.host_sends(tool) is what a host sends of one tool, and tokens.count(that, encoding) counts it as "
        "compact JSON. List the servers again on every call: a server may have the name of one seen before, or "
        "have changed since.",
        "return sum(tokens.count(cost.host_sends(tool), encoding) for server in servers for tool in "
        "wire.run_sync(wire.list_tools, server)). Use the encoding you were given, not the default.",
    ),
    "6.4": (
        "Cache hints are a constructor option of MCPServer: cache_hints={method: CacheHint(...)} (from mcp.server). "
        "Which list does the client fetch again and again?",
        "ttl_ms counts milliseconds: work out 30 minutes in them. scope='public' lets a client share the entry "
        "between users; 'private' keeps it per user. Which fits a list that is the same for everyone?",
        "MCPServer(\"workspace\", log_level=\"WARNING\", cache_hints={\"tools/list\": "
        "CacheHint(ttl_ms=30 * 60 * 1000, scope=\"public\")})",
    ),
}


# --- shared probes --------------------------------------------------------------------------------------


def _bounds(schema: dict) -> tuple[Any, Any]:
    """An integer schema's inclusive (minimum, maximum): exclusiveMinimum 0 is minimum 1, and so on."""
    low, high = schema.get("minimum"), schema.get("maximum")
    if low is None and isinstance(schema.get("exclusiveMinimum"), (int, float)):
        low = schema["exclusiveMinimum"] + 1
    if high is None and isinstance(schema.get("exclusiveMaximum"), (int, float)):
        high = schema["exclusiveMaximum"] - 1
    return low, high


def _brief(result: dict, limit: int = 120) -> str:
    return quoted(condensed(result_text(result)), limit)


# --- 6.1 trim a bloated definition under a token budget -----------------------------------------------

BUDGET = 200
"""Tokens (o200k_base) allowed for the trimmed search_tickets definition, without its outputSchema."""

RULES_6_1 = spec(
    ("one_tool", "one tool, named search_tickets", "tools/list"),
    ("params", "the parameters query (a required string), status and limit (both optional), and no other "
               "parameter", "inputSchema properties and required, order ignored"),
    ("query", "query of 2 to 100 characters, in the schema and enforced",
     "minLength/maxLength after $ref; calls with 1 and 101 characters refused, 2 and 100 accepted"),
    ("status", "status one of open, pending and closed (an enum in the schema, a Literal or an Enum), "
               "default open", "enum after $ref, default; 'archived' refused; each value returns its tickets"),
    ("limit", "limit an integer from 1 to 20 (inclusive), default 5, in the schema and enforced",
     "type integer, bounds (exclusive bounds converted), default; 0, 21 and 2.5 refused, 1 and 20 accepted"),
    ("results", "the backend's tickets: workspace.search_tickets(backend, query, status, limit)",
     "several queries (capitals too, compared with the query echoed as sent), statuses and limits, and the "
     "defaults"),
    ("output", "the workspace.TicketList output schema", "outputSchema equal to TicketList's"),
    ("says_when", "a sentence that says when to use it",
     "review.invites_use on clauses in any position (a negation inside the condition is part of the when), up to "
     "the first clause of a sentence that only limits"),
    ("when_not", "a sentence that limits its use and points to get_ticket as the tool to use instead "
                 "('call get_ticket', 'get_ticket reads it'; not 'do not call get_ticket')",
     "a limiting clause, and a clause that names get_ticket as what to use, not negated"),
    ("budget", f"at most {BUDGET} tokens (o200k_base, without the outputSchema, the description as Python 3.13 "
               "sends it)", "cost.as_sent with the description dedented like Python 3.13"),
)
WHEN_EXAMPLES = "'Use it to find tickets about a problem a customer reported.' or 'Helpful when a customer describes a problem.'"
WHEN_NOT_EXAMPLES = ("'Do not use it to read one ticket whose id you know; call get_ticket.' or "
                     "'Avoid it for a ticket whose id you have: get_ticket reads it.'")


def _says_when_anywhere(description: str) -> bool:
    """Whether a clause in any position invites use of the tool.

    Clauses that follow a limiting clause in the same sentence ("Do not use it for X; call get_ticket") name
    the alternative, not a use of this tool, so they do not count. A clause that invites and limits at once
    ("Only use it when a customer describes a problem", "Use it when you cannot recall the id") is a when.
    """
    for sentence in review.sentences(description):
        for clause in review.clauses(sentence):
            if review.invites_use(clause, negation_in_condition=True):
                return True
            if review.limits_use(clause, negation_in_condition=True):
                break
    return False


def definition_budget_tokens(tool: dict) -> int:
    """Tokens of a definition without outputSchema, with the description as Python 3.13 sends it.

    Dedenting first makes the count the same on every Python version.
    """
    description = docstrings.dedent_like_python313(tool.get("description", ""))
    return tokens.count(cost.as_sent(tool, description, output_schema=False))


def _ticket_list_schema() -> dict:
    """The outputSchema the SDK derives from `workspace.TicketList` (measured, not written down)."""
    from mcp.server import MCPServer

    reference = MCPServer("reference", log_level="WARNING")

    @reference.tool()
    def search_tickets(query: str) -> workspace.TicketList:  # pragma: no cover - never called
        raise NotImplementedError

    return wire.dump(wire.run_sync(wire.list_tools, reference)[0]).get("outputSchema") or {}


@checker("6.1", RULES_6_1)
def ex_06_1(build_lean_server) -> str:
    """Check a trimmed search_tickets: under budget, same constraints (in the schema and enforced), when and when-not."""
    server = build_server(build_lean_server)
    seen = probe(server)
    require(seen.names == ["search_tickets"], "one_tool", ", ".join(seen.names) or "no tools")
    tool = seen.tool("search_tickets")
    schema = tool.get("inputSchema", {})
    params = {name: resolve(value, schema) for name, value in schema.get("properties", {}).items()}
    require(set(params) == {"query", "status", "limit"}, "params", ", ".join(params) or "no parameters")
    required = set(schema.get("required", []))
    require(required == {"query"} and params["query"].get("type") == "string", "params",
            f"required {sorted(required)}, query of type {params['query'].get('type')}")
    query, status, limit = params["query"], params["status"], params["limit"]
    require((query.get("minLength"), query.get("maxLength")) == (2, 100), "query",
            f"minLength {query.get('minLength')}, maxLength {query.get('maxLength')} in the schema")
    enum = status.get("enum")
    require(isinstance(enum, list) and sorted(enum) == ["closed", "open", "pending"] and status.get("default") == "open",
            "status", f"enum {enum}, default {status.get('default')!r}")
    low, high = _bounds(limit)
    require(limit.get("type") == "integer" and (low, high) == (1, 20) and limit.get("default") == 5, "limit",
            f"type {limit.get('type')}, minimum {low}, maximum {high}, default {limit.get('default')}")
    output = tool.get("outputSchema") or {}
    require(output == _ticket_list_schema(), "output",
            ", ".join(output.get("properties", {})) or "no output schema")
    description = tool.get("description", "")
    invites = _says_when_anywhere(description)
    require(invites, "says_when", lambda: f"{shown(description)!r}; accepted: {WHEN_EXAMPLES}")
    require(prose.limits_and_points_to(description, "get_ticket"), "when_not",
            lambda: f"{shown(description)!r}; accepted: {WHEN_NOT_EXAMPLES}")
    used = definition_budget_tokens(tool)
    require(used <= BUDGET, "budget", f"{used} tokens")

    refused = {"query": [{"query": "a"}, {"query": "x" * 101}],
               "status": [{"query": "login", "status": "archived"}, {"query": "login", "status": "Open"}],
               "limit": [{"query": "login", "limit": 0}, {"query": "login", "limit": 21},
                         {"query": "login", "limit": 2.5}]}
    for rule, calls in refused.items():
        results = probe(server, [("search_tickets", args) for args in calls]).results
        for args, result in zip(calls, results):
            require(result.get("isError"), rule, lambda: f"search_tickets({json.dumps(args)[1:-1][:60]}) was accepted")
    backend = workspace.Workspace()
    cases = [({"query": "login"}, ("login", "open", 5)), ({"query": "login", "status": "closed"}, ("login", "closed", 5)),
             ({"query": "in", "status": "pending", "limit": 20}, ("in", "pending", 20)),
             ({"query": "xx" * 50}, ("xx" * 50, "open", 5)), ({"query": "ex", "limit": 1}, ("ex", "open", 1)),
             ({"query": "a dark mode", "status": "closed", "limit": 1}, ("a dark mode", "closed", 1)),
             ({"query": "or", "status": "open", "limit": 1}, ("or", "open", 1)),
             ({"query": "Login"}, ("Login", "open", 5)), ({"query": "dark MODE", "status": "closed"},
                                                          ("dark MODE", "closed", 5))]
    results = probe(server, [("search_tickets", args) for args, _ in cases]).results
    for (args, (q, s, n)), result in zip(cases, results):
        if required - {"query"} - set(args):  # a call that leaves out a parameter made required: told under params
            continue
        expected = workspace.search_tickets(backend, q, s, n).model_dump(mode="json")
        rule = "query" if len(q) == 100 else ("limit" if n in (1, 20) else "results")
        require(not result.get("isError") and result.get("structuredContent") == expected, rule,
                lambda: f"search_tickets({json.dumps(args)[1:-1][:60]}) returned {_brief(result)}")
    return f"search_tickets is {used} tokens (budget {BUDGET}), every constraint in the schema and enforced, with its when and when-not"


# --- 6.2 the same tools/list in every process ---------------------------------------------------------

RULES_6_2 = spec(
    ("each_once", "each of the six tools listed exactly once", "tools/list in this process"),
    ("shared", "the ticket tools working on one workspace: a comment added with add_ticket_comment shows in "
               "get_ticket",
     "add_ticket_comment on a ticket, then get_ticket on it, through one client"),
    ("self_contained", "a function that needs only its own code, imports and the functions and classes you define "
                       "beside it (no value computed outside it)",
     "its source, its helpers' sources and its imports are sent to fresh processes; no value is sent"),
    ("same_everywhere", "the same tools/list in fresh processes with different PYTHONHASHSEED values",
     "the function rebuilt from source in processes with seeds 0, 1, 2 and 3, and in one without PYTHONHASHSEED"),
    ("order", "the core tools first, then the new extras, each in the order given", "the listed order"),
)
HASH_SEEDS = (0, 1, 2, 3)
UNSET = None
"""A fresh process without PYTHONHASHSEED, as a real host starts one: an answer that behaves otherwise where the
variable is set (where only the check looks) is seen there."""
def _source_for_fresh_process(factory: Any) -> tuple[str, str]:
    """The factory as code for a fresh process (never a value computed here); a refusal fails self_contained."""
    try:
        return learner_source(factory)
    except cost.ProcessBuildError as error:
        raise fail("self_contained", str(error)) from None


def _listings(source: str, name: str) -> list[tuple[int, tuple[str, ...], str]]:
    """(seed, names, listing) of the factory's server rebuilt from its source in one process per hash seed."""
    try:
        return [(item.hash_seed, item.names, item.listing)
                for item in cost.listings_of_source(source, name, (*HASH_SEEDS, UNSET))]
    except cost.ProcessBuildError as error:
        raise fail("self_contained", str(error)) from None


@checker("6.2", RULES_6_2)
def ex_06_2(build_support_server) -> str:
    """Check that the server lists the same tools, in the intended order, in processes with different hash seeds."""
    core = ["get_ticket", "search_tickets", "add_ticket_comment"]
    extras = ["search_tickets", "search_messages", "read_message", "list_events"]
    wanted = tuple(dict.fromkeys(core + extras))
    seen = probe(build_server(build_support_server), [
        ("add_ticket_comment", {"ticket_id": "TCK-402", "comment": "Customer confirmed the fix."}),
        ("get_ticket", {"ticket_id": "TCK-402"})])
    names = tuple(seen.names)
    require(sorted(names) == sorted(wanted), "each_once", ", ".join(names) or "no tools")
    comments = (seen.results[1].get("structuredContent") or {}).get("comments", [])
    require("Customer confirmed the fix." in comments, "shared",
            lambda: f"get_ticket('TCK-402') shows comments {json.dumps(comments)} after add_ticket_comment added one")
    source, name = _source_for_fresh_process(build_support_server)  # no value computed here is ever sent
    listings = _listings(source, name)
    orders = sorted({listed for _seed, listed, _ in listings})
    require(len({listing for *_, listing in listings}) == 1, "same_everywhere",
            lambda: f"{len(orders)} different orders, e.g. " + " / ".join(", ".join(o) for o in orders[:2]))
    require(listings[0][1] == wanted, "order", ", ".join(listings[0][1]))
    require(names == wanted, "order", lambda: f"{', '.join(names)} in your kernel")
    return f"the same {len(wanted)} tools in the intended order in {len(HASH_SEEDS)} fresh processes with different hash seeds"


# --- 6.3 the per-turn cost of several servers -----------------------------------------------------------

RULES_6_3 = spec(
    ("int", "a plain (not async) function that returns an int, a number of tokens", "the returned type"),
    ("every_definition", "the tokens of every definition of every server, each counted as it goes into a model "
                         "request: the compact JSON of `cost.host_sends(tool)`, that is name, description and input "
                         "schema (the output schema is not sent), non-ASCII characters kept as they are, not "
                         "escaped",
     "servers of the course and servers built in the check, in several combinations; one with German and "
     "Japanese text and a quoted <|endoftext|> in its definitions"),
    ("encoding", "counted in the encoding passed as encoding", "o200k_base and cl100k_base",
     "the tokens counted in the encoding passed as encoding"),
    ("twice", "a tool that two servers both offer counted once per server (each server sends its own "
              "definition)", "two servers that share tool names"),
    ("afresh", "each call counted from the servers it is given, nothing kept from an earlier call (a server may "
               "have the name of one counted before with other tools or reworded descriptions, or have changed "
               "since an earlier call)",
     "servers named like servers of earlier calls, with other tools, and with the same tool names reworded; a "
     "server given again after its tools were reworded"),
    ("empty", "0 for an empty list of servers", "turn_overhead([], ...)"),
)


REWORDED = " Results come newest first, at most fifty."
"""A sentence a redeployed server adds to a tool's description (same name, same tool names, other text)."""


def _generated_server(seed: int, name: str = "", reworded: bool = False) -> Any:
    """A server the learner has never seen: tool names, texts and parameters vary with `seed` (its name too,
    unless `name` is given); `reworded` adds `REWORDED` to each description, as a redeploy that rewords them."""
    from mcp.server import MCPServer

    server = MCPServer(name or f"generated-{seed}", log_level="WARNING")
    _add_generated_tools(server, seed, reworded)
    return server


def _reword_in_place(server: Any, seed: int) -> None:
    """Change a generated server in place, as a running server may: its tools registered again under the same
    names with `REWORDED` added to each description (same object, same tool names, other text)."""
    for tool in wire.run_sync(wire.list_tools, server):
        server.remove_tool(tool.name)
    _add_generated_tools(server, seed, reworded=True)


def _add_generated_tools(server: Any, seed: int, reworded: bool) -> None:
    from typing import Annotated, Literal

    from pydantic import BaseModel, Field

    words = ["ledger", "invoice", "shipment", "sensor", "badge", "route", "quota", "replica", "tenant", "webhook"]
    for index in range(1 + seed % 3):
        noun = words[(seed * 3 + index * 7) % len(words)]

        class Result(BaseModel):
            name: str
            count: int = Field(description=f"How many {noun}s matched.")

        def handler(query, mode="fast"):
            return Result(name=query, count=0)

        handler.__annotations__ = {  # real objects, not strings: this module uses postponed annotations
            "query": Annotated[str, Field(max_length=20 + seed, description=f"Words about the {noun}.")],
            "mode": Literal["fast", "full"], "return": Result}

        server.tool(name=f"find_{noun}_{seed}_{index}",
                    description=f"Find {noun} records by words. Use it for {noun} questions; "
                                f"not for {words[(seed + index) % len(words)]}s." * (1 + index)
                                + (REWORDED if reworded else ""))(handler)


def _multilingual_server() -> Any:
    """A server whose definitions hold non-ASCII text and a model's special-token text quoted as data."""
    from typing import Annotated

    from mcp.server import MCPServer
    from pydantic import BaseModel, Field

    class Invoices(BaseModel):
        ids: list[str] = Field(description="Rechnungsnummern, älteste zuerst (請求書番号).")

    server = MCPServer("rechnungen", log_level="WARNING")

    def find_invoices(words):  # pragma: no cover - never called
        raise NotImplementedError

    find_invoices.__annotations__ = {  # real objects, not strings: this module uses postponed annotations
        "words": Annotated[str, Field(max_length=80, description="Wörter aus dem Betreff; tickets may quote "
                                                                 "markers such as <|endoftext|> as text.")],
        "return": Invoices}
    server.tool(description="Rechnungen über einem Betrag in € finden. 請求書を金額で検索します。 "
                            "Use it for questions about invoices; not for reminders.")(find_invoices)
    return server


def _variants(servers: list[Any], encoding: str) -> dict[str, int]:
    """The right total and the totals of typical mistakes, measured on the servers themselves."""
    listed = [wire.dump(tool) for server in servers for tool in wire.run_sync(wire.list_tools, server)]
    other = "cl100k_base" if encoding == "o200k_base" else "o200k_base"
    by_name = {tool["name"]: tool for tool in reversed(listed)}

    def sent(tools: list[dict], name: str = encoding) -> int:
        return cost.sent_tokens(tools, encoding=name)

    return {
        "right": sent(listed),
        "twice": sent(list(by_name.values())),
        "encoding": sent(listed, other),
        "the whole tools/list entry (outputSchema included)": sum(tokens.count(tool, encoding) for tool in listed),
        "the definition without its outputSchema (title and annotations still in)":
            sum(tokens.count(tokens.definition(tool, output_schema=False), encoding) for tool in listed),
        "OpenAI's function-tool format": cost.sent_tokens(listed, "openai", encoding),
        "non-ASCII characters \\u-escaped": sum(tokens.count(json.dumps(cost.host_sends(tool), separators=(",", ":")),
                                                          encoding) for tool in listed),
    }


def _cases() -> Iterator[tuple[str, list[Any], str, bool]]:
    """(label, servers, encoding, again) per host, in the order of the calls; `again` marks a host whose servers
    share names (or are the same objects) with servers of an earlier call but differ from them: a server named
    like an earlier one with other tools, a redeploy with the same tool names reworded, and one server object
    changed in place between two calls (made here, after the call before it)."""
    renamed_clock = _generated_server(8, name="clock")
    live = _generated_server(6, name="desk")
    yield ("weather, clock, workspace", [weather.build_server(), clock.build_server(), workspace.build_server()],
           "o200k_base", False)
    yield ("workspace (calendar), generated, workspace (calendar, mail)",
           [workspace.build_server(["calendar"]), _generated_server(4), workspace.build_server(["calendar", "mail"])],
           "cl100k_base", False)
    yield ("generated, weather-chain, generated", [_generated_server(2), weather.build_chain_server(),
                                                   _generated_server(7)], "o200k_base", False)
    yield "clock, clock", [clock.build_server(), clock.build_server()], "cl100k_base", False
    yield ("rechnungen (German, Japanese, <|endoftext|>), clock", [_multilingual_server(), clock.build_server()],
           "o200k_base", False)
    yield "generated", [_generated_server(5)], "cl100k_base", False
    yield "desk", [live], "o200k_base", False
    yield ("a server named clock with other tools, a server named generated-4 with other tools",
           [renamed_clock, _generated_server(9, name="generated-4")], "cl100k_base", True)
    yield ("a server named clock with other tools, weather", [renamed_clock, weather.build_server()], "o200k_base",
           True)
    yield ("generated-5 redeployed: the same name and tool names, other descriptions",
           [_generated_server(5, reworded=True)], "cl100k_base", True)
    _reword_in_place(live, 6)
    yield "desk, the same server object, its tools reworded since the last call", [live], "o200k_base", True
    yield "no servers", [], "o200k_base", False


@checker("6.3", RULES_6_3)
def ex_06_3(turn_overhead) -> str:
    """Check the definition tokens a host sends per turn, on servers the learner has and has not seen."""
    totals, miscounted, given = [], False, []
    for label, servers, encoding, again in _cases():
        given.append(servers)  # every server lives to the end of the check: no id() of one is reused by another
        variants = _variants(servers, encoding)
        want = variants["right"]
        got = call_learner(turn_overhead, list(servers), encoding)
        if not isinstance(got, int) or isinstance(got, bool):
            require(False, "int", f"{type(got).__name__} {shown(repr(got), 60)}")
            miscounted = True
            continue
        if not servers:
            require(got == 0, "empty", f"{got}")
            continue
        if got != want:
            mistake = next((name for name, total in variants.items() if name != "right" and total == got), None)
            rule = {"twice": "twice", "encoding": "encoding"}.get(mistake or "", "every_definition")
            if again and mistake is None and not miscounted:  # right on every new host, wrong on one come back
                rule = "afresh"
            miscounted = miscounted or not again
            other = "cl100k_base" if encoding == "o200k_base" else "o200k_base"
            said = {"twice": "a tool two servers both offer counted once, not once per server",
                    "encoding": f"{other} in place of {encoding}"}.get(mistake or "", mistake)
            require(False, rule, f"{got:,} for [{label}] in {encoding} ({got - want:+,} tokens"
                    + (f"; that is the total with {said})" if mistake else ")"),
                    f"turn_overhead([{label}], {encoding!r}) is {want:,} tokens")
            continue
        totals.append(f"{want:,}")
    return f"turn_overhead matches on {len(totals)} hosts ({', '.join(totals)} tokens per turn) and gives 0 for none"


# --- 6.4 cache hints ------------------------------------------------------------------------------------

RULES_6_4 = spec(
    ("tools", "the workspace server with every workspace tool, as the stub registers them: in order, sharing one "
              "workspace (a comment added with add_ticket_comment shows in get_ticket, an event made with "
              "create_event in list_events)",
     "tools/list names equal workspace.TOOL_NAMES, in order; add_ticket_comment then get_ticket, create_event "
     "then list_events, through one client"),
    ("duration", "clients told they may reuse the tool list for 30 minutes, so a 2026-07-28 client sends one "
                 "tools/list request for three list_tools() calls",
     "ttlMs on the 2026-07-28 tools/list result; three list_tools() through a tapped client"),
    ("shared", "the tool list marked as one that clients may share between users",
     "cacheScope; a second user of a shared client cache sends no tools/list request"),
    ("others", "no cache hint on server/discover or on the other lists: the facts are about the tool list alone, "
               "so server/discover, prompts/list, resources/list and resources/templates/list keep the SDK's "
               "default (ttlMs 0, private)",
     "each of those requests sent raw; ttlMs and cacheScope of every result"),
)
HALF_HOUR_MS = 30 * 60 * 1000
OTHER_LISTS = ("prompts/list", "resources/list", "resources/templates/list")


def _require_one_workspace(server: Any) -> None:
    """A change made with one tool shows through another: the tools share one workspace's state."""
    comment, event = "Customer confirmed the fix.", {"title": "Cache review", "date": "2026-10-02", "start": "16:00"}
    results = probe(server, [("add_ticket_comment", {"ticket_id": "TCK-402", "comment": comment}),
                             ("get_ticket", {"ticket_id": "TCK-402"}), ("create_event", event),
                             ("list_events", {"date": event["date"]})]).results
    comments = (results[1].get("structuredContent") or {}).get("comments", [])
    require(comment in comments, "tools",
            lambda: f"get_ticket('TCK-402') shows comments {json.dumps(comments)} after add_ticket_comment added one")
    titles = [item.get("title") for item in (results[3].get("structuredContent") or {}).get("events", [])]
    require(event["title"] in titles, "tools",
            lambda: f"list_events('2026-10-02') shows {json.dumps(titles)} after create_event added "
                    f"{event['title']!r}")


@checker("6.4", RULES_6_4)
def ex_06_4(build_cached_server) -> str:
    """Check cache hints on tools/list: half an hour, shareable between users."""
    server = build_server(build_cached_server)

    async def run() -> tuple[dict, int, list[int], dict[str, Any]]:
        from course_lib import protocol

        tap = wire.Tap(server)
        async with wire.connect(tap) as client:
            for _ in range(3):
                await client.list_tools()
            others = {method: await protocol.send_raw(client, method, {}) for method in OTHER_LISTS}
        listed = next((f["result"] for d, f in tap.frames if d == "S->C" and "tools" in f.get("result", {})), {})
        others["server/discover"] = next((f.get("result", {}) for d, f in tap.frames if d == "S->C"), {})
        return listed, wire.requests_sent(tap.frames, "tools/list"), await cost.list_requests_per_user(server), others

    listed, sent, per_user, others = wire.run_sync(run)
    names = tuple(tool.get("name") for tool in listed.get("tools", []))
    require(names == tuple(workspace.TOOL_NAMES), "tools", ", ".join(names) or "no tools")
    _require_one_workspace(server)
    ttl = listed.get("ttlMs")
    require(ttl == HALF_HOUR_MS, "duration",
            f"ttlMs {ttl}" + (" (ttlMs counts milliseconds)" if ttl in (30, 1800, 0.5) else ""))
    require(listed.get("cacheScope") == "public", "shared", f"cacheScope {listed.get('cacheScope')!r}")
    require(sent == 1, "duration", f"{sent} requests")
    require(per_user[1:] == [0], "shared", f"a second user sent {per_user[1]} tools/list request(s)")
    for method, result in others.items():
        hint = (result.get("ttlMs", 0), result.get("cacheScope", "private")) if isinstance(result, dict) else None
        require(hint == (0, "private"), "others", lambda: f"{method} with ttlMs {hint[0]} and cacheScope "
                                                          f"{hint[1]!r}" if hint else f"{method}: {result}")
    return "tools/list may be reused for half an hour and shared: 1 request for 3 listings, 0 for a second user"
