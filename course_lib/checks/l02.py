"""Checkers and hints for lesson 02: results the host can use."""

from __future__ import annotations

import json
from typing import Any

from course_lib import wire
from course_lib.checks.core import Probe, build_server, call_learner, checker, fail, require, result_text
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
        "can tell 'no tracking code yet' from a code. Do not invent a value such as '' or 'n/a'.",
    ),
    "2.3": (
        "A host draws tables from structuredContent, the JSON object that matches the outputSchema. It never "
        "parses the text content, which a server may shape for the model.",
        "result['structuredContent']['orders'] is a list of dicts with order_number, status, expected_delivery "
        "and items. A failed call has isError true and no structuredContent.",
        "if result.get('isError'): return []  then  return [[o['order_number'], o['status'], "
        "o['expected_delivery'], o['items']] for o in result['structuredContent']['orders']]",
    ),
}


def _probe(server: Any, calls: list[tuple[str, dict]]) -> Probe:
    """Like `checks._base.probe`, but a client-side validation failure becomes a result, not a crash."""

    async def run() -> Probe:
        async with wire.connect(server) as client:
            tools = wire.dump(list((await client.list_tools()).tools))
            names = {tool["name"] for tool in tools}
            results = []
            for name, arguments in calls:
                if name not in names:
                    results.append({"isError": True, "content": [{"type": "text", "text": f"no tool {name}"}]})
                    continue
                try:
                    results.append(wire.dump(await client.call_tool(name, arguments)))
                except RuntimeError as error:  # the client refused a result that broke its own schema
                    results.append({"clientError": str(error).splitlines()[0]})
        return Probe(tools, results)

    return wire.run_sync(run)


def _hidden(result: dict, tool: str) -> bool:
    return result_text(result).strip() == f"Error executing tool {tool}"


def _nullable(schema: dict) -> bool:
    if schema.get("type") == "null" or "null" in (schema.get("type") or []):
        return True
    return any(_nullable(option) for option in schema.get("anyOf", []) + schema.get("oneOf", []))


# --- 2.1 trim a tracking result -------------------------------------------------------------------

_SECRETS = {"carrier_api_key": "sk_demo_carrier", "depot_host": "depot-7.parcelline", "scanner ids": "SCN-"}


@checker("2.1")
def ex_02_1(build_tracking_server) -> str:
    """Check a track_order tool whose output keeps only what the caller needs."""
    server = build_server(build_tracking_server)
    numbers = ["ORD-1042", "ORD-1044", "ORD-1043", "ORD-1050"]
    seen = _probe(server, [("track_order", {"order_number": number}) for number in numbers])
    require("track_order" in seen.names, "a tool named track_order", ", ".join(seen.names) or "no tools")
    output = seen.tool("track_order").get("outputSchema")
    require(bool(output), "an output schema (annotate the return with your pydantic model, not dict)",
            "no outputSchema, so the host gets text only")
    store = orders.OrderStore()
    for number, result in zip(numbers[:2], seen.results[:2]):
        require("clientError" not in result and not result.get("isError"),
                f"track_order({number!r}) to succeed", result.get("clientError") or result_text(result)[:120])
        record = store.shipment(number)
        structured = json.dumps(result.get("structuredContent", {}))
        for key, value in (("order_number", number), ("expected_delivery", record.expected_delivery),
                           ("tracking_code", record.tracking_code), ("latest scan", record.scans[-1].description)):
            require(value in structured, f"structuredContent to include the {key} ({value!r})", structured[:120])
        everything = json.dumps(result)
        for name, marker in _SECRETS.items():
            if marker in everything:
                where = "structuredContent" if marker in structured else "the text content"
                raise fail(f"no {name} anywhere in the result", f"{marker}… in {where} (return an instance "
                           "of your model built field by field, not the record or a dict made from it)")
        old = record.scans[0].description
        require(old not in everything, "only the latest scan, not the carrier's full history",
                f"the first scan {old!r} is still in the result")
    unshipped, foreign = seen.results[2:]
    require(bool(unshipped.get("isError")) and not _hidden(unshipped, "track_order"),
            "an order that has not shipped (ORD-1043) to be a ToolError that says so",
            result_text(unshipped)[:120] or "a successful result")
    require("ORD-1043" in result_text(unshipped), "the not-shipped message to name ORD-1043",
            result_text(unshipped)[:120])
    require(bool(foreign.get("isError")) and "grace" not in json.dumps(foreign),
            "another customer's order (ORD-1050) to be refused without showing it", result_text(foreign)[:120])
    small = len(json.dumps(seen.results[0]["structuredContent"]))
    full = len(store.shipment("ORD-1042").model_dump_json())
    return (f"track_order returns {output.get('title', 'a model')} with the latest scan only: "
               f"{small} characters of structuredContent instead of the record's {full}")


# --- 2.2 a result that does not fit its model ----------------------------------------------------

_ADA = ["ORD-1042", "ORD-1043", "ORD-1044", "ORD-1045"]


@checker("2.2")
def ex_02_2(build_order_status_server) -> str:
    """Check that get_order_status returns a conforming result for every order."""
    server = build_server(build_order_status_server)
    calls = [("get_order_status", {"order_number": number}) for number in [*_ADA, "ORD-9999"]]
    seen = _probe(server, calls)
    require("get_order_status" in seen.names, "a tool named get_order_status", ", ".join(seen.names) or "no tools")
    output = seen.tool("get_order_status").get("outputSchema") or {}
    require(bool(output.get("properties")), "an output schema with named fields (keep the -> model annotation)",
            "no outputSchema, so the host gets text only")
    store = orders.OrderStore()
    for number, result in zip(_ADA, seen.results):
        require("clientError" not in result and not result.get("isError"), f"get_order_status({number!r}) "
                "to succeed", result.get("clientError") or result_text(result)[:120])
        structured = result.get("structuredContent") or {}
        want = store.record(number).tracking_code
        require(structured.get("status") == store.record(number).status, f"{number} to report its status",
                json.dumps(structured)[:120])
        if want is None:
            require(structured.get("tracking_code") is None,
                    f"tracking_code null for {number}, which has not shipped (a host must tell 'none yet' "
                    "from a code)", repr(structured.get("tracking_code")))
        else:
            require(structured.get("tracking_code") == want, f"tracking_code {want!r} for {number}",
                    repr(structured.get("tracking_code")))
    tracking = output.get("properties", {}).get("tracking_code", {})
    require(_nullable(tracking), "the outputSchema to allow null for tracking_code",
            json.dumps(tracking))
    unknown = seen.results[-1]
    require(bool(unknown.get("isError")) and "ORD-9999" in result_text(unknown),
            "an unknown order to be a tool error that names it", result_text(unknown)[:120])
    return "get_order_status conforms for all 4 orders; tracking_code is null until an order ships"


# --- 2.3 the host's table -------------------------------------------------------------------------


def _list_results() -> list[dict]:
    async def run() -> list[dict]:
        async with wire.connect(orders.build_server()) as client:
            out = []
            for arguments in ({}, {"status": "shipped"}, {"status": "cancelled"}, {"status": "lost"}):
                out.append(wire.dump(await client.call_tool("list_orders", arguments)))
        return out

    return wire.run_sync(run)


def _expected_rows(result: dict) -> list[list]:
    if result.get("isError"):
        return []
    return [[o["order_number"], o["status"], o["expected_delivery"], o["items"]]
            for o in result["structuredContent"]["orders"]]


@checker("2.3")
def ex_02_3(order_rows) -> str:
    """Check a host-side function that builds table rows from structuredContent."""
    if not callable(order_rows):
        call_learner(order_rows)
    every, shipped, none, failed = _list_results()
    summary = json.loads(json.dumps(every))
    summary["content"] = [{"type": "text", "text": "4 orders: ORD-1045, ORD-1044, ORD-1043 and ORD-1042."}]
    cases = [("all orders", every), ("status shipped", shipped), ("no cancelled orders", none),
             ("a summary text in content", summary), ("an isError result", failed)]
    for label, result in cases:
        try:
            got = order_rows(json.loads(json.dumps(result)))
        except NotImplementedError:
            got = call_learner(order_rows, result)  # raises ExerciseNotDone with the stub's text
        except Exception as error:  # name the case that broke it
            where = ("read rows from structuredContent, not from the text" if label.startswith("a summary")
                     else "return [] when isError is true" if label.startswith("an isError") else "run")
            raise fail(f"order_rows to {where} ({label})", f"it raised {type(error).__name__}: {error}") from None
        rows = [list(row) for row in got] if isinstance(got, (list, tuple)) else got
        want = _expected_rows(result)
        require(rows == want, f"{want[:2]}{' …' if len(want) > 2 else ''} for {label}"
                + (" (an isError result has no rows)" if label.startswith("an isError") else ""), repr(rows)[:120])
    return "order_rows builds the table from structuredContent, ignores the text, and gives [] for errors"
