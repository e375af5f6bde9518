"""Checker and hints for lesson 00's warm-up exercise."""

from __future__ import annotations

from course_lib import wire
from course_lib.checks.core import call_learner, checker, fail

HINTS: dict[str, tuple[str, ...]] = {
    "0.1": (
        "Print the definition with show.as_json(tool) and find where 'minimum' and 'maximum' sit.",
        "They are under definition['inputSchema']['properties'][parameter]. A parameter without a bound "
        "has no such key: use .get() so the answer is None.",
        "schema = definition['inputSchema']['properties'][parameter]; "
        "return schema.get('minimum'), schema.get('maximum')",
    ),
}


def _tool(name: str, **fields) -> dict:
    from mcp_types import Tool

    schema = {"type": "object", "properties": {"n": fields}, "required": ["n"]}
    return wire.dump(Tool(name=name, input_schema=schema))


@checker("0.1")
def ex_00_1(bounds) -> str:
    """Check a function that reads a parameter's bounds from a wire definition."""
    from course_lib.servers import weather

    forecast = next(t for t in wire.run_sync(wire.list_tools, weather.build_server()) if t.name == "get_daily_forecast")
    cases = [
        (wire.dump(forecast), "days", (1, 7)),
        (_tool("pick", type="integer", minimum=0, maximum=100), "n", (0, 100)),
        (_tool("open_ended", type="integer", minimum=5), "n", (5, None)),
        (_tool("unbounded", type="integer"), "n", (None, None)),
    ]
    for definition, parameter, expected in cases:
        got = call_learner(bounds, definition, parameter)
        normalized = tuple(got) if isinstance(got, (tuple, list)) else got
        if normalized != expected:
            raise fail(f"bounds(<{definition['name']}>, {parameter!r}) == {expected}", repr(got))
    return "bounds() reads minimum and maximum from the wire definition, None where a bound is missing"
