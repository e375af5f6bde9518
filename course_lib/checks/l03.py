"""Checkers and hints for lesson 03: two kinds of failure.

Each checker judges behaviour through a real in-process client, against a written spec (`RULES_3_N`)
that the exercise text states word for word. Expected values come from driving the course's own
servers and backend, never from a table in this module.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from course_lib import review, wire
from course_lib.checks.core import (any_earlier_call, asked_about, build_server, call_learner, checker, course_state,
                                    drawn, fail, first_difference, probe, refused, require, require_deliberate,
                                    result_text, quoted, shown, spec, watched, whole)
from course_lib.servers import orders

HINTS: dict[str, tuple[str, ...]] = {
    "3.1": (
        "A result whose text says 'error' is still a success on the wire: isError is false, and a model or host "
        "may carry on as if the order existed. Make the failure a tool execution error instead.",
        "Raise ToolError(message) where the code now returns json.dumps({'error': ...}); the SDK turns it into "
        "isError: true with your message. Return an orders.OrderSummary on success (-> orders.OrderSummary). "
        "Give another customer's order the very same message as a missing one.",
        "except orders.OrderNotFound: raise ToolError(f'Order {order_number} was not found ...') from None; "
        "the same for a row whose customer_id is not orders.SIGNED_IN; return orders.summary(row). A plain "
        "exception (ValueError) would hide your message: the model would read only 'Error executing tool get_order'.",
    ),
    "3.2": (
        "For each failure, write what failed and one safe next step, in words a model can act on. Leave out "
        "everything the backend's own message carries (SQL, host names, e-mail addresses).",
        "Not found: name the order number and ask the model to check it with the person (the desk has no tool "
        "that lists orders, so name none). Another customer's order: give "
        "exactly the same answer as for a missing one, so the model cannot learn that it exists. Outage: say "
        "it is temporary, that nothing changed, and to try again later (not 'was not found').",
        "Catch orders.OrderNotFound and orders.BackendUnavailable around store.record(order_number); compare "
        "row.customer_id with orders.SIGNED_IN; raise ToolError with your own text in each case, never str(error).",
    ),
    "3.3": (
        "A protocol error means the request itself is wrong (broken JSON-RPC, an unknown method, or params "
        "that fail the method's schema): the client program must be fixed. A tool "
        "execution error means the request was fine but the call failed: the model reads it and can adapt.",
        "Ask of each failure: did a well-formed tools/call reach a tool the server has, with an arguments "
        "object? Then what went wrong after that (a bad value, a failed lookup, an outage) comes back as a "
        "result with isError: true, which the model reads. If not, the server answers with a JSON-RPC error "
        "that only a fix to the client program can avoid.",
        "Protocol: broken JSON, an unknown method, tools/call without a name, arguments that are not an object. "
        "Everything else in the list is an execution error.",
    ),
    "3.4": (
        "Two things slip through today: an argument name the tool does not take (the SDK drops it) and a "
        "dry_run that is not a real boolean (the SDK turns 'yes' and 1 into True). Refuse both before any work.",
        "Add ctx: Context as a parameter, and compare set(wire.raw_arguments(ctx)) with "
        "{'order_number', 'dry_run'}; raise ToolError naming the extras. Make dry_run strict: "
        "Annotated[bool, Field(strict=True)] = False. Keep the store inside your function (one per server).",
        "def cancel_order(ctx: Context, order_number: str, dry_run: Annotated[bool, Field(strict=True)] = False) "
        "-> failures.CancelResult: unknown = sorted(set(wire.raw_arguments(ctx)) - {'order_number', 'dry_run'}); "
        "if unknown: raise ToolError(f'Unknown argument(s) {unknown} ...'); "
        "return failures.cancel(store, order_number, dry_run)",
    ),
}

_MORE_ORDERS = {
    # Two rows the exercise text never names, added to the backend only while a check runs: a second
    # order of another customer and another order of the signed-in one (an answer that tests order numbers
    # instead of owners fails on them). Sent to the kernel as `_more_orders`' arguments when a check starts,
    # never as part of the module: the kernel's copy of this module holds none of them (`release.kernel_side`).
    "ORD-1071": ("cus-linus", "delivered", [("HP-330", "Headphones", 1)], "Swiftpost", "SP-90377", "2026-09-30"),
    "ORD-1047": ("cus-ada", "received", [("PN-002", "Fountain pen", 2)], None, None, "2026-10-11"),
}
_MORE_CUSTOMERS = {"cus-linus": "linus@example.org"}  # a third customer: answers that test one known id fail
_SECOND_OUTAGE = "ORD-1081"
"""An order number that, in a second round of calls, sits on the offline archive shard."""


@contextmanager
def _more_orders(rows: dict, customers: dict) -> Iterator[None]:
    """The backend with extra `rows` and `customers` while a check runs (servers built inside see them)."""
    added = {number: row for number, row in rows.items() if number not in orders._ORDERS}
    new_customers = {key: value for key, value in customers.items() if key not in orders._CUSTOMERS}
    orders._ORDERS.update(added)
    orders._CUSTOMERS.update(new_customers)
    try:
        yield
    finally:
        for number in added:
            orders._ORDERS.pop(number, None)
        for key in new_customers:
            orders._CUSTOMERS.pop(key, None)


@contextmanager
def _archived(number: str) -> Iterator[None]:
    """The backend with `number` on the offline archive shard instead of the usual one."""
    before = orders.ARCHIVED
    orders.ARCHIVED = number
    try:
        yield
    finally:
        orders.ARCHIVED = before


def _numbers_of(mine: bool) -> list[str]:
    """Order numbers of the signed-in customer (`mine`) or of anybody else, read from a fresh backend."""
    store = orders.OrderStore()
    everyone = sorted(orders._ORDERS)
    return [number for number in everyone if (store.record(number).customer_id == orders.SIGNED_IN) == mine]


def _for_all(strategy: Any, test: Callable[[Any], None], examples: int) -> None:
    """Run `test` on `examples` hypothesis values drawn from a secret seed (`drawn`: no shrinking)."""
    from hypothesis import given

    drawn(examples)(given(strategy)(test))()


def _absent_numbers() -> Any:
    """Well-formed order numbers that no backend row has (and that are not on the archive shard)."""
    from hypothesis import strategies as st

    taken = set(orders._ORDERS) | {orders.ARCHIVED, _SECOND_OUTAGE}
    return st.integers(0, 9999).map(lambda n: f"ORD-{n:04d}").filter(lambda number: number not in taken)


def _calls(server: Any, tool: str, arguments: list[dict], rule: str) -> list[dict]:
    """Call `tool` with each of `arguments` in one session; fail on `rule` when the server has no such tool."""
    seen = probe(server, lambda tools: [(tool, args) for args in arguments]
                 if tool in [t["name"] for t in tools] else [])
    require(tool in seen.names, rule, ", ".join(seen.names) or "no tools")
    return seen.results


def _names_order(text: str, number: str) -> bool:
    return number in text or re.search(rf"\b{number.split('-')[-1]}\b", text) is not None


def _same_answer(text: str, number: str, other: str, other_number: str) -> bool:
    """Whether two answers are the same apart from the order number each names."""

    return _blank(text, number) == _blank(other, other_number)


def _first_difference(found: Any, expected: dict) -> str:
    """The first field where a structured result differs from the expected one, named."""
    if not isinstance(found, dict):
        return f"no structuredContent (text {shown(json.dumps(found), 100)})"
    for key in list(expected) + [k for k in found if k not in expected]:
        if found.get(key, "<missing>") != expected.get(key, "<absent>"):
            return (f"field {key!r} is {shown(json.dumps(found.get(key, '<missing>')), 80)}, the backend has "
                    f"{shown(json.dumps(expected.get(key, '<no such field>')), 80)}")
    return "the same fields"


def _require_summaries(tool: dict, results: dict[str, dict], rule: str) -> None:
    """The tool declares OrderSummary's output schema and returns each own order exactly as the backend has it."""
    reference = probe(orders.build_server()).tool("get_order")["outputSchema"]
    schema = tool.get("outputSchema") or {}
    require(set(schema.get("properties", {})) == set(reference["properties"])
            and set(schema.get("required", [])) == set(reference["required"]), rule,
            lambda: f"an output schema with fields {', '.join(schema.get('properties', {})) or 'none'}",
            "the outputSchema of -> orders.OrderSummary")
    store = orders.OrderStore()
    for number, result in results.items():
        expected = orders.summary(store.record(number)).model_dump(mode="json")
        found = result.get("structuredContent")
        require(not result.get("isError") and found == expected, rule,
                lambda: (f"an error: {quoted(result_text(result), 120)}" if result.get("isError")
                         else _first_difference(found, expected)), f"{number}")
        leaked = _leaked(result_text(result), _backend_internals())  # the text is built from the raw return value
        require(not leaked, rule, lambda: f"{', '.join(leaked)} in the text content of {number}",
                "return orders.summary(row), not the backend row: the model reads the text")


def _text_of(result: dict) -> str:
    return result_text(result).strip()


# --- 3.1 a failure that looks like success --------------------------------------------------------

RULES_3_1 = spec(
    ("tool", "keep one tool named `get_order` that takes `order_number` and nothing else, and no other tool "
             "(the signed-in customer is the server's to know, never an argument)",
     "tools/list through a real in-process client: the tool names and get_order's input schema"),
    ("typed", "return a found order as an `orders.OrderSummary` (`-> orders.OrderSummary`), so it comes with "
              "`structuredContent`",
     "outputSchema compared with the course server's get_order; every order of the signed-in customer "
     "(including one the text never names) compared field by field with the backend"),
    ("missing", "make a missing order a tool execution error (raise `ToolError`), whose message names the "
                "order number",
     "fixed and hypothesis-generated unknown order numbers; a plain exception counts as a hidden crash"),
    ("foreign", "give another customer's order exactly the same answer as a missing one, in every part of the "
                "result (only the number differs)",
     "two orders of another customer, each whole result compared with the answer for missing numbers; again "
     "with the owner's id sent under names a schema does not list (customer_id, customer, ...), compared with a "
     "missing number sent the same way"),
    ("own", "read the backend with `store.record` and word the message yourself, without calling "
            "`orders.customer_order` (it already does all this: that is the answer) or the lesson's own messages "
            "`orders.not_found_message` and `orders.unavailable_message` (exercise 3.2 asks for messages of your "
            "own: its words would be the lesson's)",
     "these three run only in the grader, which counts every call this check makes, every call of the two messages "
     "made before it (in a cell), and every call of customer_order your cells made with another customer's or a "
     "missing order number it asks about (your own orders' answers are plain data: try them out freely)"),
)

_OWNER_ARGUMENTS = ("customer_id", "customer", "customerId", "user_id", "owner")
"""Argument names a caller might try to pick whose order it reads (the SDK drops them unless a tool reads them)."""


def _owner_calls(foreign: list[str], missing: str) -> list[tuple[str, dict, dict]]:
    """(foreign number, a call naming its owner, the same call for `missing`) for each owner argument name."""
    store = orders.OrderStore()
    return [(number, {"order_number": number, name: store.record(number).customer_id},
             {"order_number": missing, name: store.record(number).customer_id})
            for number in foreign for name in _OWNER_ARGUMENTS]


@checker("3.1", RULES_3_1)
def ex_03_1(build_honest_desk_server) -> str:
    """Check that get_order reports failures as tool execution errors with their message, and types success."""
    with course_state(_more_orders, _MORE_ORDERS, _MORE_CUSTOMERS):
        own, foreign = _numbers_of(True), _numbers_of(False)
        missing = ["ORD-9999", "ORD-1046", "ORD-0001"]
        numbers = own + foreign + missing
        with watched("course_lib.servers.orders", "customer_order", earlier=asked_about(*foreign, *missing)) as used, \
                watched("course_lib.servers.orders", *LESSON_MESSAGES, earlier=any_earlier_call) as worded:
            server = build_server(build_honest_desk_server)  # watched too: a factory's calls are no cell's
            results = dict(zip(numbers, _calls(server, "get_order", [{"order_number": n} for n in numbers],
                                               "tool")))
        listed = probe(server)
        require(listed.names == ["get_order"], "tool", f"the server lists {', '.join(listed.names)}",
                "get_order alone: another tool is another way to read an order, with failures of its own")
        tool = listed.tool("get_order")
        takes = list(tool.get("inputSchema", {}).get("properties", {}))
        require(takes == ["order_number"], "tool", f"get_order takes {', '.join(takes) or 'nothing'}",
                "order_number only")
        _require_summaries(tool, {n: results[n] for n in own}, "typed")
        _check_missing(results, missing, "missing")
        _check_foreign(results, foreign, missing[0], "foreign")
        owner_calls = _owner_calls(foreign, missing[0])
        answered = _calls(server, "get_order", [call for _, *pair in owner_calls for call in pair], "tool")
        for index, (number, sent, _) in enumerate(owner_calls):
            (owner_argument,) = set(sent) - {"order_number"}
            pair = {number: answered[2 * index], missing[0]: answered[2 * index + 1]}
            _check_foreign(pair, [number], missing[0], "foreign",
                           f" (both sent with {owner_argument}={sent[owner_argument]!r})")

        def unknown_number(number: str) -> None:
            (result,) = _calls(server, "get_order", [{"order_number": number}], "tool")
            _check_missing({number: result}, [number], "missing")
            _check_foreign({number: result, missing[0]: results[missing[0]]}, [], missing[0], "foreign")
            require(_same_answer(_text_of(result), number, _text_of(results[missing[0]]), missing[0]), "missing",
                    lambda: quoted(_text_of(result)), f"{number}: the same kind of answer as for {missing[0]}")

        _for_all(_absent_numbers(), unknown_number, 8)
    require(not used, "own", lambda: _customer_order_called(used))  # last: the rules above say more
    require(not worded, "own", lambda: _messages_called(worded))
    return ("missing and other customers' orders are the same readable tool error; found orders are typed "
            "OrderSummary results")


def _check_missing(results: dict[str, dict], numbers: list[str], rule: str) -> None:
    for number in numbers:
        result = results[number]
        require_deliberate(result, "get_order", rule, number)
        require(_names_order(_text_of(result), number), rule, lambda: quoted(_text_of(result)),
                f"{number} is not in the message")


def _check_foreign(results: dict[str, dict], foreign: list[str], missing: str, rule: str, sent: str = "") -> None:
    """Each `foreign` order answered exactly as `missing` (`sent` says how both calls were made, if unusually)."""
    reference = _text_of(results[missing])
    for number in foreign:
        result = results[number]
        require_deliberate(result, "get_order", rule, number + sent)
        require(_same_answer(_text_of(result), number, reference, missing), rule,
                lambda: quoted(_text_of(result)), f"{number}{sent}; for {missing} it says: {quoted(reference, 100)}")
        difference = first_difference(whole(result, lambda text, n=number: _blank(text, n)),
                                      whole(results[missing], lambda text: _blank(text, missing)))
        require(not difference, rule, f"the same text, but {number} and {missing} differ in {difference}",
                f"the whole result, not only its text{sent}")


# --- 3.2 messages a model can recover from ---------------------------------------------------------

RULES_3_2 = spec(
    ("tool", "keep one tool named `get_order` that takes `order_number`",
     "tools/list through a real in-process client"),
    ("found", "still return the customer's own orders as an `orders.OrderSummary`",
     "every order of the signed-in customer compared field by field with the backend"),
    ("missing", "answer a missing order with a tool error (raise `ToolError`) that names the order number and "
                "gives a next step the desk supports: check the number with the person (the desk has no tool "
                "that lists orders, so name no other tool)",
     "fixed and hypothesis-generated unknown numbers; a clause must ask to check, confirm or ask for the number "
     "with the person, and no tool but `get_order` may be named"),
    ("foreign", "answer another customer's order exactly as a missing one, in every part of the result (only "
                "the number differs)",
     "two orders of another customer compared with the answers for missing numbers"),
    ("outage", "answer an outage with a tool error that names the order, reads differently from the not-found "
               "answer, and invites the model to try again later (any wording: 'try again in a minute', 'retry "
               "later', 'wait a moment, then call get_order again'; not 'do not retry')",
     "two different orders on the offline archive shard; the retry invitation is read clause by clause and a "
     "negated one ('do not retry') does not count"),
    ("no_leaks", "keep SQL, host names, e-mail addresses, secrets, file paths, stack traces and customer ids out "
                 "of every message",
     "review.leaks on every failure text, plus '@' and 'cus-'"),
    ("own", "read the backend with `store.record` and word the messages yourself, without calling "
            "`orders.customer_order` (it already does all this: that is the answer) or the lesson's own messages "
            "`orders.not_found_message` and `orders.unavailable_message` (their words would be the answer's)",
     "these three run only in the grader, which counts every call this check makes, every call of the two messages "
     "made before it (in a cell or an earlier check: 3.1 forbids them too), and every call of customer_order your "
     "cells made with another customer's, a missing or the offline order number it asks about (your own orders' "
     "answers are plain data: try them out freely)"),
)

_RETRY = re.compile(r"\b(?:again|later|retry|retrying|re-try|shortly|soon|wait|waiting|"
                    r"in (?:a|one|\d+|a few|several|some) (?:minutes?|moments?|seconds?|while|bit|hours?)|"
                    r"after (?:a|one|some|a few) (?:minutes?|moments?|while|short)|back (?:up|online))\b", re.I)
_NO_RETRY = re.compile(r"\b(?:do not|don't|dont|never|no need to|no point in|cannot|can't|should not|shouldn't|"
                       r"must not|mustn't|stop)\s+(?:\w+\s+){0,2}?(?:retry|retrying|try|trying|call|calling|ask|"
                       r"asking|again|wait)\b", re.I)


def _invites_retry(text: str) -> bool:
    """Whether some clause of `text` invites trying again later, and is not a negated retry ('do not retry')."""
    return any(_RETRY.search(clause) and not _NO_RETRY.search(clause) for clause in review.clauses(text))


def _backend_internals() -> dict[str, str]:
    """What the backend itself would give away, read from a fresh store: fragment -> what it is."""
    store = orders.OrderStore()
    found: dict[str, str] = {}
    for number in orders._ORDERS:
        row = store.record(number)
        found.update({row.customer_email: "an e-mail address", row.payment_token: "a payment token",
                      row.fulfilment_host: "a host name", row.fulfilment_host.split(".")[0]: "a host name"})
        if row.customer_id != orders.SIGNED_IN:
            found.update({row.customer_id: "a customer id", row.customer_email.split("@")[0]: "another customer's name"})
    try:
        store.record(orders.ARCHIVED)
    except orders.BackendUnavailable as error:
        for word in re.findall(r"[\w.-]+\.[\w.-]+(?::\d+)?", str(error)):
            found.update({word: "a host name", word.split(".")[0]: "a host name"})
    return found


def _leaked(text: str, internals: dict[str, str]) -> list[str]:
    found = review.leaks(text)
    if "@" in text:
        found.append("an e-mail address")
    if re.search(r"\bcus-\w+", text):
        found.append("a customer id")
    lowered = text.lower()
    found += [f"{kind} ({fragment})" for fragment, kind in internals.items()
              if len(fragment) >= 5 and fragment.lower() in lowered]
    return list(dict.fromkeys(found))


LESSON_MESSAGES = ("not_found_message", "unavailable_message")
"""The lesson's own messages, which 3.2 asks the learner to word: customer_order's body is made of them and
`store.record` (red team 8, F4: that body written out passed). Forwarded, as customer_order is (`boundary.FORWARDED`)."""


def _customer_order_called(used: Any) -> str:
    """3.1's and 3.2's "own" finding for customer_order: the cells' calls named as such, with what to do (red team
    11, L2: "called 3 time(s) before this check" read as the answer's doing)."""
    if used.by_cells():
        return (f"found {used.called()}. Only calls on another customer's, a missing or an offline order count: "
                "their answers are the lesson's words; your own orders' answers may be tried out anywhere")
    return f"orders.customer_order called {used.times()}"


def _messages_called(worded: Any, by: str = "by a cell") -> str:
    """3.1's and 3.2's "own" finding for the lesson's two message functions: every call before the check counts."""
    return f"{', '.join(sorted(set(worded)))} called {worded.times()}" + (
        f" ({by}; none while this check ran): words "
        "kept from then would be the lesson's (read its messages in lesson 03 instead of calling them, or call "
        "them after the check cells of 3.1 and 3.2)" if worded.by_cells() else "")


@checker("3.2", RULES_3_2)
def ex_03_2(build_helpful_desk_server) -> str:
    """Check three failure messages: recoverable, specific, and leaking nothing."""
    with course_state(_more_orders, _MORE_ORDERS, _MORE_CUSTOMERS):
        own, foreign = _numbers_of(True), _numbers_of(False)
        missing = ["ORD-9999", "ORD-1046"]
        numbers = own + foreign + missing + [orders.ARCHIVED]
        with watched("course_lib.servers.orders", "customer_order",
                     earlier=asked_about(*foreign, *missing, orders.ARCHIVED)) as used, \
                watched("course_lib.servers.orders", *LESSON_MESSAGES, earlier=any_earlier_call) as worded:
            server = build_server(build_helpful_desk_server)  # watched too: a factory's calls are no cell's
            results = dict(zip(numbers, _calls(server, "get_order", [{"order_number": n} for n in numbers],
                                               "tool")))
        require(not used, "own", lambda: _customer_order_called(used))  # (it calls the messages too)
        require(not worded, "own", lambda: _messages_called(worded, "by a cell, or by 3.1's server while 3.1 was "
                                                            "checked, which forbids them too"))
        with course_state(_archived, _SECOND_OUTAGE):
            (results[_SECOND_OUTAGE],) = _calls(server, "get_order", [{"order_number": _SECOND_OUTAGE}], "tool")
        listed = probe(server)
        require(listed.names == ["get_order"], "tool", f"the server lists {', '.join(listed.names)}",
                "get_order alone: another tool is another way to read an order, with failures of its own")
        tool = listed.tool("get_order")
        takes = list(tool.get("inputSchema", {}).get("properties", {}))
        require(takes == ["order_number"], "tool", f"get_order takes {', '.join(takes) or 'nothing'}",
                "order_number only")
        _require_summaries(tool, {n: results[n] for n in own}, "found")
        failed = foreign + missing + [orders.ARCHIVED, _SECOND_OUTAGE]
        internals = _backend_internals()
        for number in failed:
            require_deliberate(results[number], "get_order", "missing" if number in missing else
                               "foreign" if number in foreign else "outage", number)
            text = _text_of(results[number])
            leaked = _leaked(text, internals)
            require(not leaked, "no_leaks", lambda: f"{', '.join(leaked)} in {quoted(text, 160)}", number)
        _check_recoverable_missing(results, missing)
        _check_foreign(results, foreign, missing[0], "foreign")
        for number in (orders.ARCHIVED, _SECOND_OUTAGE):
            text = _text_of(results[number])
            require(_names_order(text, number), "outage", lambda: quoted(text), f"{number} is not in the message")
            shared = _shared_sentence(text, number, _text_of(results[missing[0]]), missing[0])
            require(not shared, "outage", lambda: quoted(text),
                    f"{number}: the outage reads like the not-found answer ({shown(shared, 80)!r}); rather than a "
                    "missing order it must say that reading it failed")
            require(_invites_retry(text), "outage", lambda: quoted(text),
                    f"{number}: no clause says to try again later")

        def unknown_number(number: str) -> None:
            (result,) = _calls(server, "get_order", [{"order_number": number}], "tool")
            require_deliberate(result, "get_order", "missing", number)
            require(not _leaked(_text_of(result), internals), "no_leaks", lambda: quoted(_text_of(result)), number)
            _check_recoverable_missing({number: result}, [number])
            _check_foreign({number: result, missing[0]: results[missing[0]]}, [], missing[0], "foreign")

        _for_all(_absent_numbers(), unknown_number, 6)
    return ("missing and foreign orders get one recoverable answer, an outage says to try again later; "
            "nothing internal leaks")


def _blank(message: str, number: str) -> str:
    return re.sub(rf"\b{number.split('-')[-1]}\b", "#", message.replace(number, "#"))


_MISSING_CLAIM = re.compile(r"\b(?:not found|does not exist|doesn't exist|no such|unknown|not one of|cannot be found|"
                            r"could not be found|couldn't be found|could not find|couldn't find|is not|isn't|no order)\b",
                            re.I)


def _shared_sentence(text: str, number: str, other: str, other_number: str) -> str:
    """A sentence of the not-found answer `other`, naming the order and saying it is missing, that `text` repeats."""
    theirs = {" ".join(sentence.split()) for sentence in review.sentences(_blank(other, other_number))}
    return next((sentence for sentence in review.sentences(_blank(text, number))
                 if "#" in sentence and " ".join(sentence.split()) in theirs and _MISSING_CLAIM.search(sentence)), "")


_CHECK_WITH_PERSON = re.compile(r"\b(?:check|confirm|verify|ask|double-check)\b.*\b(?:person|user|customer|"
                                r"them|they)\b", re.I)
_NEGATED_NEXT = re.compile(r"\b(?:do not|don't|dont|never|no need to|cannot|can't|should not|shouldn't|must not|"
                           r"mustn't|without)\s+(?:\w+\s+){0,2}?(?:check|confirm|verify|ask|double-check)\b", re.I)
_TOOL_NAME = re.compile(r"\b[a-z]+_[a-z_]+\b")
DESK_TOOLS = {"get_order"}
"""The only tool of the 3.2 desk: a message may send the model to no other."""


def _suggests_checking_the_number(text: str) -> bool:
    """Whether a clause asks to check the number with the person (not 'do not ask the person')."""
    return any(_CHECK_WITH_PERSON.search(clause) and not _NEGATED_NEXT.search(clause)
               for clause in review.clauses(text))


def _check_recoverable_missing(results: dict[str, dict], numbers: list[str]) -> None:
    for number in numbers:
        text = _text_of(results[number])
        require(_names_order(text, number), "missing", lambda: quoted(text), f"{number} is not in the message")
        require(_suggests_checking_the_number(text), "missing", lambda: quoted(text),
                f"{number}: no next step asks to check the number with the person")
        strangers = sorted(set(_TOOL_NAME.findall(text)) - DESK_TOOLS - {"order_number"})
        require(not strangers, "missing", lambda: quoted(text),
                f"{number}: the message names {', '.join(strangers)}, which the desk does not have")


# --- 3.3 protocol or execution? --------------------------------------------------------------------

RULES_3_3 = spec(
    ("dict", "return a dict whose keys are the letters `\"a\"` to `\"h\"`, one for each failure",
     "the keys of the returned dict, compared exactly"),
    ("kinds", "give each letter the kind `\"protocol\"` or `\"execution\"` (case and surrounding spaces do not "
              "matter)", "each value, stripped and lower-cased"),
    ("protocol", "call it a protocol error when the request itself is wrong (broken JSON-RPC, an unknown "
                 "method, or params that fail the method's schema, such as no tool name), so the client program "
                 "must be fixed",
     "each case reproduced against the course's order desk and weather servers through a real client: "
     "a JSON-RPC error reply (or a body that cannot be parsed at all) is a protocol error"),
    ("execution", "call it a tool execution error when the request was well formed but the call failed, so the "
                  "model can read the error and adapt",
     "the same reproduction: an isError result is a tool execution error"),
)

KINDS = ("protocol", "execution")


def _kind_of(value: Any) -> str | None:
    """'protocol' or 'execution' for that word in any case with spaces around it (as the text allows), else None."""
    kind = value.strip().lower() if isinstance(value, str) else None
    return kind if kind in KINDS else None


def _letters(letters: list[str]) -> str:
    """'for (d)' or 'for (d) and (h)': the letters a 3.3 failure line is about."""
    named = [f"({letter})" for letter in letters]
    return "for " + " and ".join(filter(None, [", ".join(named[:-1]), named[-1]])) if named else ""


def _for_letters(given: dict, letters: list[str]) -> str:
    """What the answer gave for `letters`: "'protocol'" for one letter, "'protocol' for (d), 'x' for (h)" for more."""
    if len(letters) == 1:
        return repr(given[letters[0]])
    return ", ".join(f"{given[letter]!r} for ({letter})" for letter in letters)


@checker("3.3", RULES_3_3)
def ex_03_3(classify_failures) -> str:
    """Check a classification of failures into protocol and tool execution errors, against observed failures."""

    def observed_kinds() -> dict[str, tuple[str, str]]:
        """Each failure of the exercise reproduced on the course's servers: letter -> (what it is, its kind)."""
        from course_lib import protocol
        from course_lib.servers import failures, weather

        async def run() -> dict[str, tuple[str, str]]:
            seen: dict[str, tuple[str, str]] = {}

            def note(letter: str, what: str, outcome: Any) -> None:
                seen[letter] = (what, protocol.failure_kind(outcome) or "success")

            body = '{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "get_or'
            try:
                json.loads(body)
            except ValueError:  # nothing to dispatch: the server can only answer -32700 Parse error
                seen["a"] = ("a request body cut off in the middle of a JSON object", "protocol")
            async with wire.connect(failures.build_server()) as client:
                await client.list_tools()
                note("b", "the method 'tools/execute'", await protocol.send_raw(client, "tools/execute",
                                                                               {"name": "get_order"}))
                note("c", "a tools/call without 'name'", await protocol.send_raw(
                    client, "tools/call", {"arguments": {"order_number": "ORD-1042"}}))
                note("e", "order ORD-9999, which does not exist", await protocol.call_or_error(
                    client, "get_order", {"order_number": "ORD-9999"}))
                note("f", "the order database timing out", await protocol.call_or_error(
                    client, "get_order", {"order_number": orders.ARCHIVED}))
                note("g", "arguments sent as the list [1, 2]", await protocol.send_raw(
                    client, "tools/call", {"name": "get_order", "arguments": [1, 2]}))
                note("h", "order_number '1042' against the pattern", await protocol.call_or_error(
                    client, "get_order", {"order_number": "1042"}))
            async with wire.connect(weather.build_server()) as client:
                note("d", "days=10 where the schema allows 1 to 7", await protocol.call_or_error(
                    client, "get_daily_forecast", {"city": "Oslo", "days": 10}))
            return seen

        return wire.run_sync(run)

    answers = call_learner(classify_failures)
    require(isinstance(answers, dict), "dict", type(answers).__name__, "such as {'a': 'protocol', ...}")
    given = dict(answers)
    observed = observed_kinds()
    missing = [letter for letter in sorted(observed) if letter not in given]
    extra = sorted(repr(key) for key in given if key not in observed)
    require(not missing, "dict", lambda: f"no key {', '.join(map(repr, missing))}"
            + (f"; the keys are {', '.join(extra)}" if extra else ""), "keys exactly 'a' to 'h'")
    require(not extra, "dict", f"other key(s) {', '.join(extra)}")
    letters = [letter for letter in sorted(observed) if letter in given]
    unreadable = [letter for letter in letters if _kind_of(given[letter]) is None]
    require(not unreadable, "kinds", lambda: _for_letters(given, unreadable), _letters(unreadable))
    wrong = [letter for letter in letters
             if letter not in unreadable and _kind_of(given[letter]) != observed[letter][1]]
    for kind in dict.fromkeys(observed[letter][1] for letter in wrong):  # the rule of the first wrong letter first
        mine = [letter for letter in wrong if observed[letter][1] == kind]  # all of a rule's letters on one line
        require(not mine, kind, lambda: _for_letters(given, mine),
                f"'{kind}' for " + "; ".join(f"({letter}): {observed[letter][0]}" for letter in mine))
    protocol_count = sum(kind == "protocol" for _, kind in observed.values())
    return (f"{protocol_count} protocol errors and {len(observed) - protocol_count} tool execution errors told apart, "
            "as the course's servers answer them")


# --- 3.4 strict where it matters -------------------------------------------------------------------

RULES_3_4 = spec(
    ("tool", "keep one tool named `cancel_order` that takes `order_number` and `dry_run`",
     "tools/list through a real in-process client"),
    ("unknown", "refuse, with a tool error (raise `ToolError`) that names it, any argument name other than "
                "`order_number` and `dry_run` (`dryRun`, `dry-run`, `force`, …)",
     "fixed misspellings, an extra name next to a valid dry_run, and hypothesis-generated names"),
    ("strict", "accept `dry_run` only as a real JSON `true` or `false`: refuse `\"yes\"`, `\"false\"`, `1`, `0`, "
               "`null` and every other value",
     "fixed values and hypothesis-generated JSON values of every other type"),
    ("unchanged", "change nothing when a call is refused",
     "after every refusal a dry run shows the order still uncancelled"),
    ("works", "still cancel through `failures.cancel`: `dry_run=true` only checks, a call without `dry_run` or "
              "with `dry_run=false` cancels, a shipped order stays a tool error",
     "dry runs, plain calls and dry_run=false on two orders, a shipped order, and a repeat after cancelling"),
    ("per_server", "keep the orders per server: a second server built by your function starts with every order "
                   "uncancelled",
     "a second server built after the first one cancelled two orders"),
)


def _status(result: dict) -> Any:
    return (result.get("structuredContent") or {}).get("status") if not result.get("isError") else None


def _dry_runs_differ(*seen: tuple[str, str, dict]) -> str:
    """What the dry runs of (order, status it should show, result) show, for each that does not show its status
    (only those: an order as expected is not news), as one sentence part."""
    return "; ".join(f"a dry run of {order} " + (f"gave a tool error: {quoted(result_text(result), 100)}"
                                                if result.get("isError") else f"shows it {_status(result)}")
                     for order, want, result in seen if _status(result) != want)


def _outcome(result: dict) -> str:
    if result.get("isError"):
        return f"a tool error: {quoted(result_text(result), 100)}"
    return f"it ran: {shown(json.dumps(result.get('structuredContent') or result_text(result)), 100)}"


@checker("3.4", RULES_3_4)
def ex_03_4(build_cancel_server) -> str:
    """Check a cancel_order that refuses unknown argument names and non-boolean dry_run values, changing nothing."""
    from hypothesis import strategies as st

    server = build_server(build_cancel_server)
    unknown_calls = [
        ({"order_number": "ORD-1043", "dryRun": True}, "dryRun"),
        ({"order_number": "ORD-1043", "dry-run": True}, "dry-run"),
        ({"order_number": "ORD-1043", "dry_run": True, "force": True}, "force"),
        ({"order_number": "ORD-1045", "reason": "customer asked"}, "reason"),
        ({"order_number": "ORD-1045", "Dry_Run": False}, "Dry_Run"),
        ({"order_number": "ORD-1045", "order-number": "ORD-1043", "dry_run": False}, "order-number"),
        ({"order_number": "ORD-1045", "ctx": {}}, "ctx"),  # names a Python signature has that the schema does not
        ({"order_number": "ORD-1045", "context": "x", "dry_run": True}, "context"),
    ]
    strict_values = ["yes", "false", "true", 1, 0, None, "False"]
    check = {"order_number": "ORD-1043", "dry_run": True}
    calls = ([check] + [args for args, _ in unknown_calls]
             + [{"order_number": "ORD-1045", "dry_run": v} for v in strict_values]
             + [check, {"order_number": "ORD-1045", "dry_run": True}])
    first, *results = _calls(server, "cancel_order", calls, "tool")
    properties = probe(server).tool("cancel_order").get("inputSchema", {}).get("properties", {})
    require({"order_number", "dry_run"} == set(properties), "tool",
            f"cancel_order takes {', '.join(sorted(properties)) or 'nothing'}")
    require(_status(first) == "packed", "works", lambda: _outcome(first),
            "a dry run of ORD-1043 (packed) must succeed and leave it packed")
    for (args, name), result in zip(unknown_calls, results):
        require_deliberate(result, "cancel_order", "unknown", f"{json.dumps(args)} must be refused")
        require(name in result_text(result), "unknown", lambda: quoted(result_text(result)),
                f"the refusal of {json.dumps(args)} does not name {name!r}")
    for value, result in zip(strict_values, results[len(unknown_calls):]):
        require_deliberate(result, "cancel_order", "strict", f"dry_run={json.dumps(value)} must be refused")
    first_check, second_check = results[-2:]
    accepted = any(not refused(result) for result in results[:-2])  # a call it should have refused ran: told above
    require(accepted or (_status(first_check) == "packed" and _status(second_check) == "received"), "unchanged",
            lambda: _dry_runs_differ(("ORD-1043", "packed", first_check), ("ORD-1045", "received", second_check)),
            "after the refused calls, dry runs must show ORD-1043 packed and ORD-1045 received")

    def refused_name(name: str) -> None:
        args = {"order_number": "ORD-1043", "dry_run": True, name: True}
        (result,) = _calls(server, "cancel_order", [args], "tool")
        require_deliberate(result, "cancel_order", "unknown", f"{json.dumps(args)} must be refused")
        require(name in result_text(result), "unknown", lambda: quoted(result_text(result)),
                f"the refusal does not name {name!r}")

    names = st.text(st.sampled_from("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-"), min_size=2,
                    max_size=12).filter(lambda n: n not in ("order_number", "dry_run", "ctx", "context"))
    _for_all(names, refused_name, 10)

    def refused_value(value: Any) -> None:
        (result,) = _calls(server, "cancel_order", [{"order_number": "ORD-1043", "dry_run": value}], "tool")
        require_deliberate(result, "cancel_order", "strict", f"dry_run={shown(json.dumps(value), 40)} must be refused")

    values = st.one_of(st.integers(-5, 5), st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=6),
                       st.none(), st.lists(st.booleans(), max_size=2), st.dictionaries(st.text(max_size=3),
                                                                                      st.booleans(), max_size=1))
    _for_all(values, refused_value, 12)

    work = [check, {"order_number": "ORD-1043"}, {"order_number": "ORD-1045", "dry_run": False},
            {"order_number": "ORD-1042", "dry_run": True}, {"order_number": "ORD-1042"}, check]
    still, plain, explicit, shipped_check, shipped, again = _calls(server, "cancel_order", work, "tool")
    require(accepted or _status(still) == "packed", "unchanged",
            lambda: _dry_runs_differ(("ORD-1043", "packed", still)),
            "after the generated refusals, a dry run must show ORD-1043 packed")
    require(_status(plain) == "cancelled", "works", lambda: _outcome(plain), "ORD-1043 without dry_run must cancel")
    require(_status(explicit) == "cancelled", "works", lambda: _outcome(explicit),
            "ORD-1045 with dry_run=false must cancel")
    for label, result in (("dry run of", shipped_check), ("call on", shipped)):
        require_deliberate(result, "cancel_order", "works", f"a {label} shipped ORD-1042 must stay a tool error")
    require(_status(again) == "cancelled", "works", lambda: _outcome(again),
            "a dry run after cancelling must show ORD-1043 cancelled")
    second = build_server(build_cancel_server)
    fresh = _calls(second, "cancel_order", [check, {"order_number": "ORD-1045", "dry_run": True}], "tool")
    require([_status(result) for result in fresh] == ["packed", "received"], "per_server",
            lambda: _dry_runs_differ(("ORD-1043", "packed", fresh[0]), ("ORD-1045", "received", fresh[1])),
            "on a second server, dry runs must show ORD-1043 packed and ORD-1045 received")
    return ("cancel_order refuses unknown names and every non-boolean dry_run without changing anything; dry runs, "
            "cancels and shipped orders behave, per server")
