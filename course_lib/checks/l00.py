"""Checker and hints for lesson 00's warm-up exercise."""

from __future__ import annotations

import copy
from typing import Any

from course_lib import wire
from course_lib.errors import CheckFailed
from course_lib.checks.core import call_learner, checker, drawn, lent, require, spec

HINTS: dict[str, tuple[str, ...]] = {
    "0.1": (
        "Print the definition with show.as_json(tool) (the setup cell's tool: get_daily_forecast as a client "
        "lists it) and find where 'minimum' and 'maximum' sit.",
        "They are under definition['inputSchema']['properties'][parameter]. A parameter without a bound "
        "has no such key: use .get() so the answer is None. A bound of 0 is a bound, not a missing one.",
        "schema = definition['inputSchema']['properties'][parameter]; "
        "return schema.get('minimum'), schema.get('maximum')",
    ),
}

RULES_0_1 = spec(
    ("pair", "return a pair (minimum, maximum) for the parameter you are asked about, as a tuple or a list",
     "the lesson server's get_daily_forecast days, then generated definitions with several parameters, "
     "random names and bounds (0, negative and fractional included)"),
    ("read", "read each bound from that parameter's own `minimum` and `maximum` keywords, as the number "
             "written there (a bound of 0 or -1.5 included; a bound inside its `items` or `properties` bounds "
             "something else)",
     "every generated definition has other parameters with other bounds, and random tool names; a parameter "
     "name shared by definitions (of a same-named tool too) with other bounds; one definition asked about "
     "twice, and compared with a copy after"),
    ("missing", "give `None` for a bound the parameter does not have; `exclusiveMinimum` and "
                "`exclusiveMaximum` are other keywords and do not count",
     "parameters with only a minimum, only a maximum, neither (some with a default, which is no bound), only "
     "exclusive bounds, or bounds only on their array items or object properties"),
)


def _tool(name: str, properties: dict[str, dict]) -> dict:
    """A wire-form definition made by the SDK's own Tool model, so it looks like any listed tool."""
    from mcp_types import Tool

    schema = {"type": "object", "properties": properties, "required": sorted(properties)[:1]}
    return wire.dump(Tool(name=name, input_schema=schema))


def _bounds_of(schema: dict) -> tuple[Any, Any]:
    return schema.get("minimum"), schema.get("maximum")


def _judge(bounds: Any, definition: dict, parameter: str, passed: Any = None, again: bool = False) -> None:
    """Ask for `parameter`'s bounds of `definition` (or of `passed`, the object the check hands over when it
    asks about one object several times) and fail on the rule a wrong answer breaks."""
    expected = _bounds_of(definition["inputSchema"]["properties"][parameter])
    try:
        got = call_learner(bounds, copy.deepcopy(definition) if passed is None else passed, parameter)
    except CheckFailed as crash:  # the learner's function raised: name the rule that case probes
        if crash.rule or not str(crash.found).startswith("it raised"):
            raise
        require(False, "missing" if None in expected else "read", _lent_explained(str(crash.found), again),
                f"bounds(<{definition['name']}>, {parameter!r}) should be {expected}"
                + (", asked again about the same definition" if again else ""))
        return  # the check goes on to the other cases
    if not (isinstance(got, (tuple, list)) and len(got) == 2):
        require(False, "pair", repr(got), f"bounds(<{definition['name']}>, {parameter!r})")
        return
    pair = tuple(got)
    if pair == expected and [b is None for b in pair] == [b is None for b in expected]:
        return
    missing = [key for key, value in zip(("minimum", "maximum"), expected) if value is None]
    rule = "missing" if any(e is None and g is not None for e, g in zip(expected, pair)) else "read"
    where = f"bounds(<{definition['name']}>, {parameter!r}) should be {expected}" + (
        ", asked again about the same definition" if again else "")
    if missing and rule == "missing":
        where += f": {parameter} has no {' and no '.join(missing)}"
    require(False, rule, repr(got), where)


def _lent_explained(found: str, again: bool) -> str:
    """`found` (what the learner's function raised), with why, when it names the type of the definition the check
    lends for the questions asked again (red team 10, L1': `type(definition) is not dict` raised, naming it)."""
    from course_lib.workbook import boundary

    if not again or boundary.LENT_DICT not in found:
        return found
    return (f"{found} (asked again about one definition, the check lends it from the grader as a {boundary.LENT_DICT}, "
            "a subclass of dict: `type(definition) is dict` is False for it, so test with isinstance(definition, "
            "dict))")


_RESIZE = {"width": {"type": "integer", "minimum": 1, "maximum": 10},
           "height": {"type": "integer", "minimum": 1, "maximum": 20}}
_ASKED_AGAIN = ("width", "width", "depth", "height", "depth", "width")


def _judge_again(bounds: Any) -> None:
    """Nothing carried from one call to the next: a same-named parameter of other definitions (of a same-named
    tool too) has its own bounds; one definition object asked about several times answers each time, and stays
    as it was."""
    definitions = [_tool("resize", _RESIZE),
                   _tool("resize", {"width": {"type": "integer", "minimum": 5, "maximum": 50},
                                    "height": {"type": "integer"}}),
                   _tool("crop", {"width": {"type": "number", "minimum": -3}, "height": {"type": "number"}})]
    for definition in (*definitions, *reversed(definitions)):
        for parameter in ("width", "height"):
            _judge(bounds, definition, parameter)
    one = _same_object()  # asked about several times, by reference: it stays here (`lent`)
    kept = copy.deepcopy(one)
    handed = lent(one)
    for parameter in _ASKED_AGAIN:
        _judge(bounds, kept, parameter, passed=handed, again=True)
    require(one == kept, "read", lambda: f"the definition changed: {_changed(kept, one)}",
            "bounds() reads the definition and leaves it as it was")


def _same_object() -> dict:
    return _tool("resize", {**_RESIZE, "depth": {"type": "integer", "maximum": 3}})


def _changed(before: dict, after: dict) -> str:
    """The first change from `before` to `after`, for a failure line."""
    old = before["inputSchema"]["properties"]
    new = after["inputSchema"].get("properties", {})
    for name in sorted(set(old) | set(new)):
        if old.get(name) != new.get(name):
            return f"{name} was {old.get(name)}, now {new.get(name, '(gone)')}"
    return "outside its parameters"


@checker("0.1", RULES_0_1)
def ex_00_1(bounds) -> str:
    """Check a function that reads a parameter's bounds from a wire definition."""
    from hypothesis import given
    from hypothesis import strategies as st

    from course_lib.servers import weather

    listed = wire.run_sync(wire.list_tools, weather.build_server())
    forecast = wire.dump(next(t for t in listed if t.name == "get_daily_forecast"))
    _judge(bounds, forecast, "days")
    _judge(bounds, forecast, "city")

    # both bounds missing, one missing, a bound of 0, exclusive bounds only, a default where a bound is missing:
    # always tried, whatever hypothesis drew
    fixed = _tool("pick_one", {"n": {"type": "integer", "minimum": 0, "maximum": 0},
                               "low": {"type": "integer", "minimum": 5, "default": 7},
                               "high": {"type": "number", "maximum": -1.5, "default": -3},
                               "free": {"type": "integer", "default": 4},
                               "strict": {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 8},
                               "sizes": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 5}},
                               "box": {"type": "object", "minimum": 2,
                                       "properties": {"width": {"type": "integer", "minimum": 4, "maximum": 9}}}})
    for parameter in ("free", "low", "high", "n", "strict", "sizes", "box"):
        _judge(bounds, fixed, parameter)
    # the lesson's own parameter names with other bounds: an answer that knows get_daily_forecast is caught
    lookalike = _tool("get_hourly_forecast", {"days": {"type": "integer", "minimum": 2, "maximum": 14},
                                              "city": {"type": "string"},
                                              "hours": {"type": "integer", "minimum": 1, "maximum": 48}})
    for parameter in ("days", "city", "hours"):
        _judge(bounds, lookalike, parameter)
    _judge_again(bounds)

    names = st.from_regex(r"[a-z][a-z0-9_]{2,14}", fullmatch=True)
    bound = st.one_of(st.none(), st.integers(-50, 50), st.sampled_from([0, 0.5, -2.5, 100]))
    param = st.fixed_dictionaries({"type": st.sampled_from(["integer", "number"])},
                                  optional={"minimum": bound.filter(lambda b: b is not None),
                                            "maximum": bound.filter(lambda b: b is not None),
                                            "exclusiveMinimum": bound.filter(lambda b: b is not None),
                                            "exclusiveMaximum": bound.filter(lambda b: b is not None),
                                            "default": st.integers(-9, 9),
                                            "description": st.just("a number")})
    definitions = st.tuples(names, st.dictionaries(names, param, min_size=2, max_size=4))

    @drawn(60)
    @given(definitions, st.data())
    def each(named: tuple[str, dict], data: Any) -> None:
        name, properties = named
        definition = _tool(name, properties)
        parameter = data.draw(st.sampled_from(sorted(properties)))
        _judge(bounds, definition, parameter)

    each()
    return ("bounds() reads minimum and maximum of the named parameter from any wire definition "
            "(60 generated ones included), None where a bound is missing")
