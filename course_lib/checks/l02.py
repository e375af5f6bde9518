"""Checkers and hints for lesson 02: results the host can use."""

from __future__ import annotations

import copy
import json
import sys
from typing import Any

from course_lib import wire
from course_lib.errors import CheckFailed
from course_lib.checks.core import (build_server, call_learner, checker, drawn, first_difference, outcome, refused,
                                    holding, replacing, require, require_deliberate, result_text, session, shown,
                                    spec, texts_of, whole)
from course_lib.checks.schemas import resolve, types
from course_lib.servers import orders

HINTS: dict[str, tuple[str, ...]] = {
    "2.1": (
        "Ask what the caller needs to answer 'where is my parcel?': which order, its status, when it arrives, "
        "who carries it, and the latest scan. Everything else in the carrier's record stays on the server.",
        "Write two pydantic models: LatestScan(at, location, description) and Tracking(order_number, status, "
        "expected_delivery, carrier, tracking_code, latest_scan: LatestScan). Annotate track_order with "
        "-> Tracking so the SDK publishes an outputSchema.",
        "Build the instance yourself: last = record.scans[-1]; return Tracking(..., latest_scan=LatestScan("
        "at=last.at, location=last.location, description=last.description)). Returning the record (or a dict "
        "made from it) puts every field into the text content, even when structuredContent is trimmed. Before "
        "shipping, store.shipment() returns None: raise ToolError saying when it is expected.",
    ),
    "2.2": (
        "Call the tool for every order in orders.OrderStore() and read the one that fails. What does the "
        "backend hold in tracking_code before an order ships?",
        "The model says tracking_code: str, but unshipped orders have None. The SDK validates the result against "
        "the model, fails, and the model reads only 'Error executing tool ...'.",
        "Declare it as it is: tracking_code: str | None = None. The outputSchema then allows null, so a host "
        "can tell 'no tracking code yet' from a code. Do not invent a value such as '' or 'n/a'. Return an "
        "OrderStatus built field by field: the text content is made from what you return, so a returned row "
        "shows the customer's e-mail and payment token there.",
    ),
    "2.3": (
        "A host draws tables from structuredContent, the JSON object that matches the outputSchema. It never "
        "parses the text content, which a server may shape for the model.",
        "result['structuredContent']['orders'] is a list of dicts with order_number, status, expected_delivery "
        "and items. A failed call has isError true, and may still carry a structuredContent: check isError first. "
        "A result without structuredContent has no rows for the table, whatever its text says.",
        "if result.get('isError') or not result.get('structuredContent'): return [] before anything else, then  return [[o['order_number'], o['status'], "
        "o['expected_delivery'], o['items']] for o in result['structuredContent']['orders']]",
    ),
}



def _judge_refusals(seen_results: list[dict], tool: str, rule: str, foreign: str, missing: str) -> None:
    """Another customer's order and a missing one: deliberate errors, same words, nothing of the foreign order."""
    other, absent = seen_results
    require_deliberate(absent, tool, rule, f"{missing} does not exist")
    require(missing in result_text(absent), rule, outcome(absent), f"the message for {missing} should name it")
    require_deliberate(other, tool, rule, f"{foreign} is another customer's order")
    record = orders.OrderStore().record(foreign)
    shown_data = [value for value in (record.customer_email, record.carrier, record.tracking_code,
                                      record.lines[0].name, record.customer_id) if value and value in json.dumps(other)]
    require(not shown_data, rule, f"the answer for {foreign} shows {', '.join(shown_data)}")
    difference = first_difference(whole(other, replacing(foreign, foreign.split("-")[-1])),
                                  whole(absent, replacing(missing, missing.split("-")[-1])))
    require(not difference, rule, f"{foreign} and {missing} differ in {difference}",
            f"{foreign} (another customer's) must get the very result {missing} (missing) gets, numbers aside")


def _output_fields(tool: dict) -> dict:
    output = tool.get("outputSchema") or {}
    resolved = resolve(output, output)
    return {name: resolve(schema, output) for name, schema in resolved.get("properties", {}).items()}


# --- 2.1 trim a tracking result -------------------------------------------------------------------

RULES_2_1 = spec(
    ("tool", "register a tool named track_order that takes one parameter, order_number", "list the tools"),
    ("schema", "return your own typed model (a pydantic model, dataclass or TypedDict), so track_order has an "
               "outputSchema with named fields",
     "the listed outputSchema, $ref resolved"),
    ("fields", "put in structuredContent, under any field names and nesting, the order number, status, expected "
               "delivery date, carrier and tracking code, and the latest scan's time, place and description, "
               "as the backend gives them",
     "a shipped and a delivered order (different latest scans), values compared to the backend"),
    ("nothing-else", "keep out of every part of the result (structuredContent, each text block, _meta) the "
                     "carrier's API key and depot host, every scanner id and earlier scan, and the order row's "
                     "e-mail, payment token and fulfilment host",
     "each value of the backend's record and row searched in the whole result; every refusal searched for "
     "every row's and record's private values"),
    ("not-shipped", "refuse an order that has not shipped with a tool error (ToolError) that names the order and "
                    "says when it is expected (its expected delivery date, e.g. 2026-10-07 or 7 October)",
     "ORD-1043 and ORD-1045; a hidden crash fails"),
    ("foreign", "answer another customer's order (ORD-1050) exactly as a missing one (ORD-9999): the same tool "
                "error in every part of the result, apart from the number, and nothing of that order",
     "ORD-1050 vs ORD-9999, whole results compared with the numbers taken out"),
)

_TRACKED = ("ORD-1042", "ORD-1044")
_UNSHIPPED = ("ORD-1043", "ORD-1045")


def _latest_fields(store: orders.OrderStore, number: str) -> dict[str, str]:
    record = store.shipment(number)
    last = record.scans[-1]
    return {"order number": record.order_number, "status": record.status,
            "expected delivery date": record.expected_delivery, "carrier": record.carrier,
            "tracking code": record.tracking_code, "latest scan's time": last.at,
            "latest scan's place": last.location, "latest scan's description": last.description}


def _date_forms(iso: str) -> list[str]:
    """An ISO date as a message may write it: 2026-10-07, 7 October, October 7, 7 Oct, Oct 7."""
    from datetime import date

    day = date.fromisoformat(iso)
    forms = [iso]
    for month in (day.strftime("%B"), day.strftime("%b")):
        forms += [f"{day.day} {month}", f"{month} {day.day}", f"{month} {day.day:02d}"]
    return forms


def _secrets(store: orders.OrderStore, number: str) -> dict[str, str]:
    """What no result may hold, whichever order it answers: every row's e-mail, payment token and fulfilment
    host, every shipment's API key, depot host and scanner ids (refusals included); `number`'s named first."""
    rows = sorted([*store.records(orders.SIGNED_IN), store.record("ORD-1050")],
                  key=lambda row: row.order_number != number)
    found: dict[str, str] = {}
    for row in rows:
        record = store.shipment(row.order_number)
        values = {"the customer's e-mail": row.customer_email, "the payment token": row.payment_token,
                  "the fulfilment host": row.fulfilment_host}
        if record is not None:
            values.update({"the carrier's API key": record.carrier_api_key, "the depot host": record.depot_host})
            values.update({f"scanner id {scan.scanner_id}": scan.scanner_id for scan in record.scans})
        of = "" if row.order_number == number else f" of {row.order_number}"
        found.update({label + of: value for label, value in values.items() if value not in found.values()})
    return found


def _internals(store: orders.OrderStore, number: str) -> dict[str, str]:
    """`_secrets`, and a tracked order's earlier scans."""
    record = store.shipment(number)
    found = _secrets(store, number)
    found.update({f"an earlier scan ({scan.at}, {scan.description})": scan.at for scan in record.scans[:-1]})
    allowed = list(_latest_fields(store, number).values())
    for scan in record.scans[:-1]:  # earlier places and events, unless the latest scan's own text contains them
        for text in (scan.description, scan.location):
            if len(text) >= 6 and not any(text in value for value in allowed):
                found[f"an earlier scan ({scan.description} at {scan.location})"] = text
    return found


_NESTED_TYPEDDICT = ("" if sys.version_info >= (3, 12) else
                     " (on Python 3.11, a TypedDict that holds another TypedDict gets no schema unless TypedDict "
                     "is imported from typing_extensions)")


@checker("2.1", RULES_2_1)
def ex_02_1(build_tracking_server) -> str:
    """Check a track_order tool whose output keeps only what the caller needs."""
    server = build_server(build_tracking_server)
    numbers = [*_TRACKED, *_UNSHIPPED, "ORD-1050", "ORD-9999"]
    seen = session(server, [("track_order", {"order_number": number}) for number in numbers])
    require("track_order" in seen.names, "tool", ", ".join(seen.names) or "no tools")
    tool = seen.tool("track_order")
    params = list(tool["inputSchema"].get("properties", {}))
    require(params == ["order_number"], "tool", f"parameters {', '.join(params) or 'none'}")
    fields = _output_fields(tool)
    require(fields and set(fields) != {"result"}, "schema",
            "no outputSchema with named fields, so the host gets text only" + _NESTED_TYPEDDICT
            if not fields else "only a wrapped 'result' (return a model, not a str or dict)")
    store = orders.OrderStore()
    for number, result in zip(_TRACKED, seen.results):
        require(not refused(result) and "clientError" not in result, "fields", lambda: outcome(result),
                f"track_order({number!r}) should succeed")
        values = texts_of(result.get("structuredContent") or {}, keys=False)
        for label, value in _latest_fields(store, number).items():
            require(any(value in leaf for leaf in values), "fields",
                    f"no {value!r} in structuredContent {shown(json.dumps(result.get('structuredContent')), 120)}",
                    f"the {label} of {number}")
        internals = _internals(store, number)  # structuredContent first: what is there, the model itself holds
        leaked = holding({"structuredContent": result.get("structuredContent")}, internals) or \
            holding(result, internals)
        require(not leaked, "nothing-else", lambda: leaked + (
            " (your model holds it: fill its fields with only what the caller needs)"
            if leaked.endswith("in structuredContent") else " (return an instance of your model built field by "
            "field)" if leaked.endswith("in the text content") else ""), f"track_order({number!r})")
    for number, result in zip(numbers[len(_TRACKED):], seen.results[len(_TRACKED):]):  # every refusal too
        leaked = holding(result, _secrets(store, number))
        require(not leaked, "nothing-else", f"{leaked} of track_order({number!r})")
    for number, result in zip(_UNSHIPPED, seen.results[2:4]):
        require_deliberate(result, "track_order", "not-shipped", f"{number} has not shipped")
        expected = store.record(number).expected_delivery
        text = result_text(result)
        require(number in text and any(form in text for form in _date_forms(expected)), "not-shipped",
                outcome(result),
                f"the message for {number} should name it and {expected}")
    _judge_refusals(seen.results[4:6], "track_order", "foreign", "ORD-1050", "ORD-9999")
    def compact(value: Any) -> int:  # one measure for both sides: the characters of compact JSON
        return len(json.dumps(value, separators=(",", ":")))

    small = compact(seen.results[0]["structuredContent"])
    full = compact(store.shipment("ORD-1042").model_dump(mode="json"))
    title = (tool.get("outputSchema") or {}).get("title", "a typed result")
    return (f"track_order returns {title} with the latest scan only ({small} characters of compact JSON in "
            f"structuredContent instead of the record's {full}); unshipped, foreign and missing orders are refused "
            "properly")


# --- 2.2 a result that does not fit its model ----------------------------------------------------

RULES_2_2 = spec(
    ("tool", "register a tool named get_order_status that takes one parameter, order_number", "list the tools"),
    ("schema", "keep a typed output model with the fields order_number, status, expected_delivery and "
               "tracking_code and no others, so the tool has an outputSchema",
     "the listed outputSchema, $ref resolved; its fields and structuredContent's keys, no others"),
    ("required", "keep order_number, status and expected_delivery required and not nullable in the outputSchema",
     "the outputSchema's required list and each field's types"),
    ("every-order", "succeed for every order of the signed-in customer (ORD-1042 to ORD-1045) with its number, "
                    "status and expected delivery date",
     "all four orders, values compared to the backend"),
    ("null", "give tracking_code as null (None) until an order ships, and its code once it has "
             "(no placeholder such as '' or 'n/a')",
     "the two unshipped and the two shipped orders"),
    ("nullable", "let the outputSchema allow null for tracking_code", "the property's types, through anyOf"),
    ("private", "keep the rest of the backend's row, what lesson 02's OrderSummary leaves out (e-mail, payment "
                "token, hosts, customer id, row id, timestamps, audit log), out of every part of the result, text "
                "content included; the carrier and the lines, which OrderSummary shows callers, may appear in the "
                "text",
     "no other row field in the outputSchema or structuredContent; every value of the row outside the four "
     "fields searched in the whole result, and every row's e-mail, token, host and customer id in every "
     "refusal"),
    ("refuse", "answer an unknown order (ORD-9999) and another customer's order (ORD-1050) with the same tool "
               "error (ToolError) in every part of the result, apart from the number it names",
     "ORD-9999 and ORD-1050, whole results compared; a hidden crash fails"),
)

_ADA = ("ORD-1042", "ORD-1043", "ORD-1044", "ORD-1045")
_STATUS_FIELDS = ("order_number", "status", "expected_delivery", "tracking_code")


_CALLER_FACING = set(orders.OrderSummary.model_fields)
"""The row's fields lesson 02's OrderSummary shows callers: not private, though not in 2.2's model either."""


def _judge_extra_fields(names: list[str], where: str) -> None:
    """Only the four fields: a private field of the backend's row (one OrderSummary leaves out) is "the rest"
    (private), any other is not the model the text asks for (schema)."""
    extra = [name for name in names if name not in _STATUS_FIELDS]
    backend = [name for name in extra if name in orders.OrderRecord.model_fields and name not in _CALLER_FACING]
    require(not backend, "private", lambda: f"{where} has {', '.join(backend)} from the backend's row",
            "only order_number, status, expected_delivery and tracking_code")
    require(not extra, "schema", lambda: f"{where} has {', '.join(extra)} as well",
            "only order_number, status, expected_delivery and tracking_code")


def _private(store: orders.OrderStore) -> dict[str, str]:
    """The private values the text names, of every row (the signed-in customer's and another's)."""
    found: dict[str, str] = {}
    for row in [*store.records(orders.SIGNED_IN), store.record("ORD-1050")]:
        values = {"e-mail": row.customer_email, "payment token": row.payment_token,
                  "fulfilment host": row.fulfilment_host, "customer id": row.customer_id}
        found.update({f"the {label} {value!r}": value for label, value in values.items()})
    return found


def _rest_of_row(row: orders.OrderRecord) -> dict[str, str]:
    """Every value of the row's private fields (those OrderSummary leaves out: audit log, timestamps, ...), unless
    a caller-facing field holds it (a status 'delivered' is also an audit action); of five characters or more
    (no quantities)."""
    kept = [str(getattr(row, name)) for name in _CALLER_FACING]
    rest = row.model_dump(mode="json", exclude=_CALLER_FACING)
    values = [value for value in texts_of(rest, keys=False)
              if len(value) >= 5 and not any(value in text for text in kept)]
    return {f"{value!r} of the row": value for value in values}


@checker("2.2", RULES_2_2)
def ex_02_2(build_order_status_server) -> str:
    """Check that get_order_status returns a conforming result for every order."""
    server = build_server(build_order_status_server)
    numbers = [*_ADA, "ORD-1050", "ORD-9999"]
    seen = session(server, [("get_order_status", {"order_number": number}) for number in numbers])
    require("get_order_status" in seen.names, "tool", ", ".join(seen.names) or "no tools")
    tool = seen.tool("get_order_status")
    params = list(tool["inputSchema"].get("properties", {}))
    require(params == ["order_number"], "tool", f"parameters {', '.join(params) or 'none'}")
    fields = _output_fields(tool)
    missing = [name for name in _STATUS_FIELDS if name not in fields]
    require(fields and not missing, "schema", "no outputSchema with named fields (keep the -> model annotation)"
            if not fields else f"no {', '.join(missing)} in the outputSchema")
    _judge_extra_fields(list(fields), "the outputSchema")
    output = tool.get("outputSchema") or {}
    required = set(resolve(output, output).get("required", []))
    for name in ("order_number", "status", "expected_delivery"):
        require(name in required and "null" not in types(fields[name]), "required",
                f"{name}: {'optional' if name not in required else 'nullable'} ({json.dumps(fields[name])})")
    tracking = fields["tracking_code"]  # judged first: a client refuses a null its schema forbids
    open_schema = not any(key in tracking for key in ("type", "anyOf", "oneOf", "enum", "const", "$ref"))
    require(open_schema or "null" in types(tracking), "nullable", json.dumps(tracking))
    store = orders.OrderStore()
    for number, result in zip(_ADA, seen.results):
        require(not refused(result) and "clientError" not in result, "every-order", lambda: outcome(result),
                f"get_order_status({number!r}) should succeed")
        structured = result.get("structuredContent") or {}
        row = store.record(number)
        for key in ("order_number", "status", "expected_delivery"):
            require(structured.get(key) == getattr(row, key), "every-order",
                    f"{key} {structured.get(key)!r}", f"{number} has {key} {getattr(row, key)!r}")
        _judge_extra_fields(list(structured), f"structuredContent of get_order_status({number!r})")
        leaked = holding(result, _private(store) | _rest_of_row(row))
        require(not leaked, "private", f"{leaked} of get_order_status({number!r})",
                "return your model, built field by field: the text content is made from what you return")
        if row.tracking_code is None:
            require(structured.get("tracking_code", None) is None, "null",
                    f"tracking_code {structured.get('tracking_code')!r}", f"{number} has not shipped")
        else:
            require(structured.get("tracking_code") == row.tracking_code, "null",
                    f"tracking_code {structured.get('tracking_code')!r}", f"{number} has {row.tracking_code!r}")
    for number, result in zip(numbers[len(_ADA):], seen.results[len(_ADA):]):  # refusals hold no row either
        leaked = holding(result, _private(store))
        require(not leaked, "private", f"{leaked} of get_order_status({number!r})")
    _judge_refusals(seen.results[4:6], "get_order_status", "refuse", "ORD-1050", "ORD-9999")
    return "get_order_status conforms for all 4 orders; tracking_code is null until an order ships; " \
           "foreign and missing orders get the same refusal"


# --- 2.3 the host's table -------------------------------------------------------------------------

RULES_2_3 = spec(
    ("rows", "return one row [order_number, status, expected_delivery, items] per order, in the order "
             "structuredContent lists them (lists or tuples)",
     "real list_orders results (all, shipped, none) and 80 generated ones with extra fields"),
    ("structured", "read the rows from structuredContent only, never from the text content",
     "results whose text is a summary, empty, or describes other orders"),
    ("no-structured", "return [] for a result without structuredContent (no such key, or the key present with "
                      "the value null), whatever its text holds",
     "a success result whose text is the JSON of real orders, and one with structuredContent null"),
    ("errors", "return [] for an isError result, even one that carries structuredContent",
     "a real failed call, and an error result that still has structuredContent"),
)


def _list_results() -> list[dict]:
    async def run() -> list[dict]:
        async with wire.connect(orders.build_server()) as client:
            out = []
            for arguments in ({}, {"status": "shipped"}, {"status": "cancelled"}, {"status": "lost"}):
                out.append(wire.dump(await client.call_tool("list_orders", arguments)))
        return out

    return wire.run_sync(run)


def _rows_of(result: dict) -> list[list]:
    if result.get("isError") or not result.get("structuredContent"):
        return []
    return [[o["order_number"], o["status"], o["expected_delivery"], o["items"]]
            for o in result["structuredContent"]["orders"]]


def _judge_rows(order_rows: Any, label: str, result: dict, rule: str) -> bool:
    """Whether `order_rows` gives the rows of `result`; if not, `rule` is noted broken with what it gave."""
    want = _rows_of(result)
    try:
        got = call_learner(order_rows, copy.deepcopy(result))
    except CheckFailed as crash:  # the learner's function raised: name the case that broke it
        if crash.rule or not str(crash.found).startswith("it raised"):
            raise
        require(False, rule, crash.found, label)  # the check goes on to the other cases
        return False
    rows = [list(row) if isinstance(row, (list, tuple)) else row for row in got] \
        if isinstance(got, (list, tuple)) else got
    if rows == want:
        return True
    if isinstance(rows, list) and len(rows) == len(want):
        index = next(i for i, (a, b) in enumerate(zip(rows, want)) if a != b)
        found = f"row {index} {shown(repr(rows[index]), 80)} instead of {want[index]!r}"
    else:
        found = f"{shown(repr(rows), 100)} ({len(rows) if isinstance(rows, list) else 'not a list'} rows, " \
                f"{len(want)} expected)"
    require(False, rule, found, label)
    return False


@checker("2.3", RULES_2_3)
def ex_02_3(order_rows) -> str:
    """Check a host-side function that builds table rows from structuredContent."""
    from hypothesis import given
    from hypothesis import strategies as st

    if not callable(order_rows):
        call_learner(order_rows)
    every, shipped, none, failed = _list_results()
    summary = copy.deepcopy(every)
    summary["content"] = [{"type": "text", "text": "4 orders: ORD-1045, ORD-1044, ORD-1043 and ORD-1042."}]
    other_text = copy.deepcopy(shipped)
    other_text["content"] = copy.deepcopy(every["content"])
    no_text = copy.deepcopy(every)
    no_text["content"] = []
    text_only = {key: value for key, value in copy.deepcopy(every).items() if key != "structuredContent"}
    text_only["content"] = [{"type": "text", "text": json.dumps(every["structuredContent"])}]
    null_structured = {**copy.deepcopy(text_only), "structuredContent": None}
    stale_error = copy.deepcopy(every)
    stale_error.update(isError=True, content=[{"type": "text", "text": "Error executing tool list_orders: timeout"}])
    right: dict[str, bool] = {}
    for label, result, rule, like in (("all orders", every, "rows", ""), ("status shipped", shipped, "rows", ""),
                                      ("no cancelled orders", none, "rows", ""),
                                      ("a summary text in content", summary, "structured", "all orders"),
                                      ("a text about other orders", other_text, "structured", "status shipped"),
                                      ("no text content", no_text, "structured", "all orders"),
                                      ("an isError result", failed, "errors", ""),
                                      ("an isError result that carries structuredContent", stale_error, "errors",
                                       "")):
        if like and not right[like]:  # wrong already without the text twist: told under rows (unseen11, M8)
            continue
        right[label] = _judge_rows(order_rows, label, result, rule)
    many = [{"order_number": f"ORD-{2000 + n}", "status": "shipped" if n % 3 else "packed",
             "expected_delivery": f"2026-11-{n % 28 + 1:02d}", "items": n % 5 + 1} for n in range(25)]
    _judge_rows(order_rows, "a long list of 25 orders (every one is a row, none cut)",
                {"content": [{"type": "text", "text": "25 orders."}], "structuredContent": {"orders": many}}, "rows")

    order = st.fixed_dictionaries(
        {"order_number": st.from_regex(r"ORD-[0-9]{4}", fullmatch=True),
         "status": st.sampled_from(["received", "packed", "shipped", "delivered", "cancelled"]),
         "expected_delivery": st.dates().map(lambda d: d.isoformat()),
         "items": st.integers(0, 99)},
        optional={"carrier": st.sampled_from(["Parcelline", "Swiftpost"]), "note": st.text(max_size=10)})
    texts = st.sampled_from(["", "Your orders.", '{"orders": []}', every["content"][0]["text"]])

    @drawn(80)
    @given(st.lists(order, max_size=6), texts, st.booleans())
    def each(rows: list[dict], text: str, says_success: bool) -> None:
        result = {"content": [{"type": "text", "text": text}], "structuredContent": {"orders": rows}}
        if says_success:  # isError is optional on the wire and defaults to false: both forms arrive
            result["isError"] = False
        _judge_rows(order_rows, f"a generated result with {len(rows)} orders"
                    + ("" if says_success else " and no isError key (it defaults to false)"), result, "rows")

    each()
    for label, result in (("no structuredContent, the orders' JSON as text", text_only),
                          ("structuredContent null, the orders' JSON as text", null_structured)):
        _judge_rows(order_rows, label, result, "no-structured")
    return "order_rows builds the table from structuredContent (real and 80 generated results), ignores the " \
           "text, and gives [] for every error result and every result without structuredContent"
