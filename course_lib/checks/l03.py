"""Checkers and hints for lesson 03: two kinds of failure."""

from __future__ import annotations

import json
import re

from course_lib import review
from course_lib.checks.core import build_server, call_learner, checker, probe, require, result_text
from course_lib.servers import orders

HINTS: dict[str, tuple[str, ...]] = {
    "3.1": (
        "A result whose text says 'error' is still a success on the wire: isError is false, and a model or host "
        "may carry on as if the order existed. Make the failure a tool execution error instead.",
        "Raise ToolError(message) where the code now returns json.dumps({'error': ...}); the SDK turns it into "
        "isError: true with your message. Return an orders.OrderSummary on success (-> orders.OrderSummary).",
        "except orders.OrderNotFound: raise ToolError(f'Order {order_number} was not found ...') from None; "
        "the same for another customer's order; return orders.summary(row). A plain exception (ValueError) "
        "would hide your message: the model would read only 'Error executing tool get_order'.",
    ),
    "3.2": (
        "For each failure, write what failed and one safe next step, in words a model can act on. Leave out "
        "everything the backend's own message carries (SQL, host names, e-mail addresses).",
        "Not found: name the order number and suggest calling list_orders. Another customer's order: give "
        "exactly the same answer as for a missing one, so the model cannot learn that it exists. Outage: say "
        "it is temporary, that nothing changed, and to try again later.",
        "Catch orders.OrderNotFound and orders.BackendUnavailable around store.record(order_number); compare "
        "row.customer_id with orders.SIGNED_IN; raise ToolError with your own text in each case, never str(error).",
    ),
    "3.3": (
        "A protocol error means the JSON-RPC message itself is wrong: the client program must be fixed. A tool "
        "execution error means the request was fine but the call failed: the model reads it and can adapt.",
        "Since the 2025-11-25 spec, arguments that break the tool's input schema are tool execution errors "
        "(the model can fix them), not -32602. The rule of thumb: could a smarter model have avoided it? "
        "Then it is an execution error.",
        "Protocol: broken JSON, an unknown method, tools/call without a name, arguments that are not an object. "
        "Everything else in the list is an execution error.",
    ),
    "3.4": (
        "Two things slip through today: an argument name the tool does not take (the SDK drops it) and a "
        "dry_run that is not a real boolean (the SDK turns 'yes' and 1 into True).",
        "Add ctx: Context as the first parameter, and compare set(wire.raw_arguments(ctx)) with "
        "{'order_number', 'dry_run'}; raise ToolError naming the extras. Make dry_run strict: "
        "Annotated[bool, Field(strict=True)] = False.",
        "def cancel_order(ctx: Context, order_number: str, dry_run: Annotated[bool, Field(strict=True)] = False) "
        "-> failures.CancelResult: unknown = sorted(set(wire.raw_arguments(ctx)) - {'order_number', 'dry_run'}); "
        "if unknown: raise ToolError(f'Unknown argument(s) {unknown} ...'); "
        "return failures.cancel(store, order_number, dry_run)",
    ),
}


def _hidden(result: dict, tool: str) -> bool:
    return result_text(result).strip() == f"Error executing tool {tool}"


# --- 3.1 a failure that looks like success --------------------------------------------------------


@checker("3.1")
def ex_03_1(build_desk_server) -> str:
    """Check that get_order reports failures as tool execution errors with their message."""
    server = build_server(build_desk_server)
    numbers = ["ORD-1042", "ORD-9999", "ORD-1050"]
    seen = probe(server, lambda tools: [("get_order", {"order_number": n}) for n in numbers]
                 if "get_order" in [t["name"] for t in tools] else [])
    require("get_order" in seen.names, "a tool named get_order", ", ".join(seen.names) or "no tools")
    ok, missing, foreign = seen.results
    expected = orders.summary(orders.OrderStore().record("ORD-1042")).model_dump(mode="json")
    require(not ok.get("isError") and ok.get("structuredContent") == expected,
            "ORD-1042 to return an OrderSummary as structuredContent (-> orders.OrderSummary)",
            json.dumps(ok.get("structuredContent", result_text(ok)[:100]))[:120])
    for number, result in (("ORD-9999", missing), ("ORD-1050", foreign)):
        require(bool(result.get("isError")), f"{number} to be a tool execution error (isError: true)",
                f"isError false with text {result_text(result)[:80]!r}")
        require(not _hidden(result, "get_order"), f"the model to read why {number} failed (raise ToolError, "
                "not a plain exception)", repr(result_text(result)))
        require(number in result_text(result), f"the message to name {number}", repr(result_text(result)[:120]))
    require("grace" not in json.dumps(foreign), "no trace of the other customer in the ORD-1050 message",
            repr(result_text(foreign)[:120]))
    return "failures are isError results the model can read; the success is a typed OrderSummary"


# --- 3.2 messages a model can recover from ---------------------------------------------------------

_NEXT_STEP = re.compile(r"\b(try again|retry)\b", re.I)


@checker("3.2")
def ex_03_2(build_desk_server) -> str:
    """Check three failure messages: recoverable, specific, and leaking nothing."""
    server = build_server(build_desk_server)
    numbers = ["ORD-9999", "ORD-1050", orders.ARCHIVED, "ORD-1043"]
    seen = probe(server, lambda tools: [("get_order", {"order_number": n}) for n in numbers]
                 if "get_order" in [t["name"] for t in tools] else [])
    require("get_order" in seen.names, "a tool named get_order", ", ".join(seen.names) or "no tools")
    missing, foreign, down, ok = seen.results
    require(not ok.get("isError"), "ORD-1043 to succeed", result_text(ok)[:120])
    for label, result in (("a missing order", missing), ("another customer's order", foreign), ("an outage", down)):
        text = result_text(result)
        require(bool(result.get("isError")), f"{label} to be a tool execution error", f"isError false: {text[:80]!r}")
        require(not _hidden(result, "get_order"), f"a message for {label} (raise ToolError, not a plain "
                "exception)", repr(text))
        leaked = review.leaks(text) + (["an e-mail address"] if "@" in text else [])
        require(not leaked, f"no internals in the message for {label}", f"{', '.join(leaked)} in {text[:100]!r}")
    missing_text, foreign_text = result_text(missing), result_text(foreign)
    require("ORD-9999" in missing_text and "list_orders" in missing_text,
            "the not-found message to name ORD-9999 and a next step: call list_orders", repr(missing_text[:140]))
    require(foreign_text.replace("ORD-1050", "ORD-9999") == missing_text,
            "the same answer for another customer's order as for a missing one (existence must not leak)",
            repr(foreign_text[:140]))
    down_text = result_text(down)
    require(_NEXT_STEP.search(down_text) is not None and orders.ARCHIVED in down_text,
            f"the outage message to name {orders.ARCHIVED} and say to try again later", repr(down_text[:140]))
    return "three failures, three recoverable messages; no SQL, host or other customer leaks"


# --- 3.3 protocol or execution? --------------------------------------------------------------------

FAILURES: dict[str, tuple[str, str]] = {
    "a": ("The request body stops halfway through a JSON object.", "protocol"),
    "b": ("The client sends the method 'tools/execute', which MCP does not have.", "protocol"),
    "c": ("A tools/call request has no 'name' in its params.", "protocol"),
    "d": ("The model asks for days=10; the tool's input schema allows 1 to 7.", "execution"),
    "e": ("The model asks for order ORD-9999, which does not exist.", "execution"),
    "f": ("The order database times out while the tool runs.", "execution"),
    "g": ("A tools/call request sends its arguments as the list [1, 2] instead of an object.", "protocol"),
    "h": ("The model sends order_number '1042'; the schema's pattern wants 'ORD-1042'.", "execution"),
}


@checker("3.3")
def ex_03_3(classify) -> str:
    """Check a classification of failures into protocol and tool execution errors."""
    answers = call_learner(classify)
    require(isinstance(answers, dict), "classify() to return a dict such as {'a': 'protocol', ...}",
            type(answers).__name__)
    missing = [key for key in FAILURES if key not in answers]
    require(not missing, f"an answer for every failure ({', '.join(FAILURES)})", f"none for {', '.join(missing)}")
    for key, (text, kind) in FAILURES.items():
        got = str(answers[key]).strip().lower()
        require(got in ("protocol", "execution"), f"({key}) to be 'protocol' or 'execution'", repr(answers[key]))
        require(got == kind, f"'{kind}' for ({key}) {text}", repr(answers[key]))
    return "4 protocol errors and 4 tool execution errors told apart"


# --- 3.4 strict where it matters -------------------------------------------------------------------


@checker("3.4")
def ex_03_4(build_cancel_server) -> str:
    """Check a cancel_order that refuses unknown argument names and non-boolean dry_run values."""
    server = build_server(build_cancel_server)
    calls = [
        ("cancel_order", {"order_number": "ORD-1043", "dryRun": True}),
        ("cancel_order", {"order_number": "ORD-1043", "dry_run": "yes"}),
        ("cancel_order", {"order_number": "ORD-1043", "dry_run": 1}),
        ("cancel_order", {"order_number": "ORD-1043", "dry_run": True}),
        ("cancel_order", {"order_number": "ORD-1043"}),
        ("cancel_order", {"order_number": "ORD-1042", "dry_run": False}),
    ]
    seen = probe(server, lambda tools: calls if "cancel_order" in [t["name"] for t in tools] else [])
    require("cancel_order" in seen.names, "a tool named cancel_order", ", ".join(seen.names) or "no tools")
    misspelled, word, number, check, real, shipped = seen.results
    require(bool(misspelled.get("isError")), "{'dryRun': true} to be refused: the tool takes dry_run, and the "
            "SDK silently drops names it does not know", "it ran, and cancelled ORD-1043")
    require("dryRun" in result_text(misspelled) and not _hidden(misspelled, "cancel_order"),
            "the refusal to name the unknown argument 'dryRun'", repr(result_text(misspelled)[:120]))
    for value, result in (("'yes'", word), ("1", number)):
        require(bool(result.get("isError")), f"dry_run={value} to be refused (only true or false)",
                "it was accepted as a boolean")
    require(not check.get("isError") and (check.get("structuredContent") or {}).get("status") == "packed",
            "the dry run to leave ORD-1043 packed (so no refused call changed anything)",
            json.dumps(check.get("structuredContent", result_text(check)[:80])))
    require(not real.get("isError") and (real.get("structuredContent") or {}).get("status") == "cancelled",
            "a plain call to cancel ORD-1043", json.dumps(real.get("structuredContent", result_text(real)[:80])))
    require(bool(shipped.get("isError")), "ORD-1042 (shipped) to stay a tool error", result_text(shipped)[:80])
    return "cancel_order refuses unknown names and non-boolean dry_run; valid calls still work"
