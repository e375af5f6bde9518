"""Checkers and hints for lesson 06: what tools cost."""

from __future__ import annotations

from typing import Any

from course_lib import cost, docstrings, review, tokens, wire
from course_lib.checks.core import (Probe, build_server, call_learner, checker, fail, probe, require,
                                    result_text)
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
        "A host sends every definition of every connected server on every turn. List each server's tools, "
        "count each definition, add them up.",
        "wire.run_sync(wire.list_tools, server) lists a server's tools from plain (non-async) code; "
        "tokens.count(tool, encoding) counts one definition as compact JSON, outputSchema included.",
        "return sum(tokens.count(tool, encoding) for server in servers for tool in "
        "wire.run_sync(wire.list_tools, server)). Use the encoding you were given, not the default.",
    ),
    "6.4": (
        "Cache hints are a constructor option of MCPServer: cache_hints={method: CacheHint(...)}.",
        "ttl_ms is in milliseconds (ten minutes = 600_000), and scope='public' lets a client share the "
        "entry between users; 'private' keeps it per user.",
        "MCPServer(\"workspace\", log_level=\"WARNING\", cache_hints={\"tools/list\": "
        "CacheHint(ttl_ms=600_000, scope=\"public\")})",
    ),
}


# --- 6.1 trim a bloated definition under a token budget -----------------------------------------------

BUDGET = 200
"""Tokens (o200k_base) allowed for the trimmed search_tickets definition, without its outputSchema."""


def definition_budget_tokens(tool: dict) -> int:
    """Tokens of a definition without outputSchema, with the description as Python 3.13 sends it.

    Dedenting first makes the count the same on every Python version.
    """
    description = docstrings.dedent_like_python313(tool.get("description", ""))
    return tokens.count(cost.as_sent(tool, description, output_schema=False))


@checker("6.1")
def ex_06_1(build_lean_server) -> str:
    """Check a trimmed search_tickets: under budget, same constraints, when and when-not kept."""
    server = build_server(build_lean_server)
    calls = [("search_tickets", {"query": "login", "status": "closed"}),
             ("search_tickets", {"query": "export", "limit": 1}),
             ("search_tickets", {"query": "login", "status": "archived"}),
             ("search_tickets", {"query": "login", "limit": 50})]
    seen: Probe = probe(server, lambda tools: calls if [t["name"] for t in tools] == ["search_tickets"] else [])
    require(seen.names == ["search_tickets"], "one tool, search_tickets", ", ".join(seen.names) or "no tools")
    tool = seen.tool("search_tickets")
    schema = tool.get("inputSchema", {})
    params = schema.get("properties", {})
    require(list(params) == ["query", "status", "limit"], "parameters query, status, limit", ", ".join(params))
    require(schema.get("required") == ["query"], "query to stay required (and only query)",
            f"required={schema.get('required')}")
    query, status, limit = params["query"], params["status"], params["limit"]
    require((query.get("minLength"), query.get("maxLength")) == (2, 100),
            "query to keep minLength 2 and maxLength 100", f"minLength={query.get('minLength')}, "
            f"maxLength={query.get('maxLength')}")
    require(sorted(status.get("enum", [])) == ["closed", "open", "pending"] and status.get("default") == "open",
            "status to keep enum ['open', 'pending', 'closed'] and default 'open'",
            f"enum={status.get('enum')}, default={status.get('default')}")
    require((limit.get("minimum"), limit.get("maximum"), limit.get("default")) == (1, 20, 5),
            "limit to keep minimum 1, maximum 20 and default 5",
            f"minimum={limit.get('minimum')}, maximum={limit.get('maximum')}, default={limit.get('default')}")
    output = tool.get("outputSchema") or {}
    require(set(output.get("properties", {})) == {"query", "status", "tickets"},
            "the same TicketList output schema (query, status, tickets)",
            ", ".join(output.get("properties", {})) or "no output schema")
    description = tool.get("description", "")
    require(review.says_when(description), "a sentence that says when to use it ('Use it ...')", repr(description))
    require(review.says_when_not(description) and "get_ticket" in description,
            "the when-not sentence that points to get_ticket", repr(description))
    used = definition_budget_tokens(tool)
    require(used <= BUDGET, f"at most {BUDGET} tokens (o200k_base, without outputSchema)", f"{used} tokens")
    backend = workspace.Workspace()
    closed, export, bad_status, bad_limit = seen.results
    for result, (query_text, status_value, count) in ((closed, ("login", "closed", 5)), (export, ("export", "open", 1))):
        expected = workspace.search_tickets(backend, query_text, status_value, count).model_dump(mode="json")
        require(result.get("structuredContent") == expected,
                f"search_tickets(query={query_text!r}, status={status_value!r}) to return the backend's tickets",
                result_text(result)[:120])
    require(bool(bad_status.get("isError")) and bool(bad_limit.get("isError")),
            "status='archived' and limit=50 to be rejected", "at least one of them was accepted")
    return f"search_tickets is {used} tokens (budget {BUDGET}), with every constraint and its when/when-not"


# --- 6.2 the same tools/list in every process ---------------------------------------------------------

EXPECTED_ORDER = ("get_ticket", "search_tickets", "add_ticket_comment", "search_messages", "read_message",
                  "list_events")
HASH_SEEDS = (0, 1, 2)


@checker("6.2")
def ex_06_2(build_support_server) -> str:
    """Check that the server lists the same tools, in the intended order, in processes with different hash seeds."""
    server = build_server(build_support_server)
    names = tuple(probe(server).names)
    require(sorted(names) == sorted(EXPECTED_ORDER) and len(names) == len(set(names)),
            f"each of {', '.join(EXPECTED_ORDER)} exactly once", ", ".join(names) or "no tools")
    try:
        listings = cost.listings_across_processes(build_support_server, HASH_SEEDS)
    except cost.ProcessBuildError as error:
        raise fail("build_support_server to run in a fresh Python process", str(error)) from None
    orders = {listing.names for listing in listings}
    require(len({listing.listing for listing in listings}) == 1,
            f"the same tools/list in processes with PYTHONHASHSEED {', '.join(map(str, HASH_SEEDS))}",
            f"{len(orders)} different orders, e.g. " + " / ".join(", ".join(o[:3]) + ", …" for o in sorted(orders)[:2]))
    require(names == EXPECTED_ORDER, "the core tools first, then the new extras, each in the order given",
            ", ".join(names))
    return f"the same {len(names)} tools in the same order in {len(HASH_SEEDS)} processes with different hash seeds"


# --- 6.3 the per-turn cost of three servers -------------------------------------------------------------


def _cases() -> list[tuple[str, list[Any], str]]:
    return [
        ("weather, clock, workspace", [weather.build_server(), clock.build_server(), workspace.build_server()],
         "o200k_base"),
        ("weather-chain, workspace (calendar, mail), clock",
         [weather.build_chain_server(), workspace.build_server(["calendar", "mail"]), clock.build_server()],
         "cl100k_base"),
    ]


def expected_overhead(servers: list[Any], encoding: str) -> int:
    """The reference answer: tokens of every definition of every server, each as compact JSON."""
    return sum(tokens.count(tool, encoding) for server in servers for tool in wire.run_sync(wire.list_tools, server))


@checker("6.3")
def ex_06_3(turn_overhead) -> str:
    """Check an estimate of the definition tokens a host sends per turn."""
    results = []
    for label, servers, encoding in _cases():
        want = expected_overhead(servers, encoding)
        got = call_learner(turn_overhead, servers, encoding)
        require(isinstance(got, int) and not isinstance(got, bool), "an int (a number of tokens)",
                f"{type(got).__name__} {got!r}"[:80])
        require(got == want, f"turn_overhead([{label}], {encoding!r}) to be {want:,} tokens",
                f"{got:,} ({got - want:+,}; count real tokens of every definition, not an estimate)")
        results.append(f"{want:,} ({encoding})")
    return f"turn_overhead matches on two hosts: {' and '.join(results)} tokens per turn"


# --- 6.4 cache hints ------------------------------------------------------------------------------------

TTL_MS = 600_000


@checker("6.4")
def ex_06_4(build_cached_server) -> str:
    """Check cache hints on tools/list: ten minutes, shareable between users."""
    server = build_server(build_cached_server)

    async def run() -> tuple[dict, int, int]:
        tap = wire.Tap(server)
        async with wire.connect(tap) as client:
            for _ in range(3):
                await client.list_tools()
        listed = next((f["result"] for d, f in tap.frames if d == "S->C" and "tools" in f.get("result", {})), {})
        sent = wire.requests_sent(tap.frames, "tools/list")
        counts = await cost.list_requests_per_user(server)
        return listed, sent, counts[1]

    listed, sent, second_user = wire.run_sync(run)
    require(bool(listed.get("tools")), "a server with tools (register the workspace tools)", "no tools")
    require(listed.get("ttlMs") == TTL_MS, f"tools/list with ttlMs {TTL_MS} (ten minutes, in milliseconds)",
            f"ttlMs {listed.get('ttlMs')}")
    require(listed.get("cacheScope") == "public", "tools/list with cacheScope 'public'",
            f"cacheScope {listed.get('cacheScope')!r}")
    require(sent == 1, "one tools/list request for three list_tools() calls", f"{sent} requests")
    require(second_user == 0, "a second user of a shared cache to send no tools/list request",
            f"{second_user} request(s)")
    return "tools/list is cached for ten minutes and shared: 1 request for 3 listings, 0 for a second user"
