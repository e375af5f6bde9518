"""Tool definitions as a contract: every diff rule on hand-written wire dicts, lesson 09's servers, snapshots, the CLI."""

from __future__ import annotations

import json
import socket
import subprocess
import sys

import pytest

from conftest import ROOT
from course_lib import __version__, contract, servers, targets, wire
from course_lib.servers import evolving


def tool(name: str = "t", props: dict | None = None, required: tuple[str, ...] = (), **extra) -> dict:
    """A wire-form tool definition with an object input schema."""
    schema: dict = {"type": "object", "properties": props or {}, "title": f"{name}Arguments"}
    if required:
        schema["required"] = list(required)
    return {"name": name, "inputSchema": schema, **extra}


def arg(props: dict, required: tuple[str, ...] = ()) -> dict:
    """A tool `t` whose input schema has these properties."""
    return tool("t", props, required)


def out(props: dict, required: tuple[str, ...] = ()) -> dict:
    """A tool `t` without arguments whose output schema has these properties."""
    return tool("t", outputSchema={"type": "object", "properties": props, "required": list(required)})


def rows(old: list[dict] | dict, new: list[dict] | dict) -> list[tuple[str, str, bool]]:
    """The diff as (tool, what, breaking) triples."""
    old, new = (old if isinstance(old, list) else [old]), (new if isinstance(new, list) else [new])
    return [(c.tool, c.what, c.breaking) for c in contract.diff(old, new)]


INT = {"type": "integer"}
STR = {"type": "string"}
NUM = {"type": "number"}
PRIORITY = {"type": "string", "enum": ["low", "high", "urgent"]}
NULLABLE_STR = {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None}
COLOR_DEFS = {"Color": {"enum": ["red", "blue"], "title": "Color", "type": "string"}}
COLOR_REF = {"$ref": "#/$defs/Color"}


def with_defs(props: dict, defs: dict) -> dict:
    """A tool `t` whose required properties may point into `$defs`, as pydantic writes an Enum class."""
    made = arg(props, tuple(props))
    made["inputSchema"]["$defs"] = defs
    return made

# (id, old, new, expected rows). Every rule appears with a breaking case and a case that is not breaking.
CASES = [
    ("tool removed", [tool("a"), tool("b")], [tool("a")],
     [("b", "tool removed", True)]),
    ("tool added", [tool("a")], [tool("a"), tool("b")],
     [("b", "new tool", False)]),
    ("rename with identical schema", [tool("get", {"id": STR}, ("id",))], [tool("fetch", {"id": STR}, ("id",))],
     [("fetch", "new tool (renamed from get?)", False), ("get", "tool removed (renamed to fetch?)", True)]),
    ("removal and addition with different schemas", [tool("get", {"id": STR})], [tool("fetch", {"id": INT})],
     [("fetch", "new tool", False), ("get", "tool removed", True)]),
    ("new required argument", arg({"a": STR}), arg({"a": STR, "b": STR}, ("b",)),
     [("t", "new required argument b", True)]),
    ("new optional argument", arg({"a": STR}), arg({"a": STR, "b": {**STR, "default": "x"}}),
     [("t", "new optional argument b", False)]),
    ("argument removed", arg({"a": STR, "b": STR}), arg({"a": STR}),
     [("t", "argument b removed", True)]),
    ("type changed", arg({"a": STR}), arg({"a": INT}),
     [("t", "argument a: type changed (string -> integer)", True)]),
    ("type narrowed number to integer", arg({"a": NUM}), arg({"a": INT}),
     [("t", "argument a: type narrowed (number -> integer)", True)]),
    ("type widened integer to number", arg({"a": INT}), arg({"a": NUM}),
     [("t", "argument a: type widened (integer -> number)", False)]),
    ("enum narrowed", arg({"p": PRIORITY}), arg({"p": {**PRIORITY, "enum": ["low", "high"]}}),
     [("t", 'argument p: enum narrowed (removed "urgent")', True)]),
    ("enum widened", arg({"p": PRIORITY}), arg({"p": {**PRIORITY, "enum": ["low", "high", "urgent", "max"]}}),
     [("t", 'argument p: enum widened (added "max")', False)]),
    ("enum where there was none", arg({"p": STR}), arg({"p": PRIORITY}),
     [("t", 'argument p: now limited to "high", "low", "urgent"', True)]),
    ("Enum class narrowed behind $ref", with_defs({"c": COLOR_REF}, COLOR_DEFS),
     with_defs({"c": COLOR_REF}, {"Color": {**COLOR_DEFS["Color"], "enum": ["red"]}}),
     [("t", 'argument c: enum narrowed (removed "blue")', True)]),
    ("Enum class inlined instead of $ref is no change", with_defs({"c": COLOR_REF}, COLOR_DEFS),
     arg({"c": {"type": "string", "enum": ["blue", "red"]}}, ("c",)),
     []),
    ("minimum raised", arg({"n": {**INT, "minimum": 1}}), arg({"n": {**INT, "minimum": 2}}),
     [("t", "argument n: minimum raised (>= 1 -> >= 2)", True)]),
    ("minimum lowered", arg({"n": {**INT, "minimum": 1}}), arg({"n": {**INT, "minimum": 0}}),
     [("t", "argument n: minimum lowered (>= 1 -> >= 0)", False)]),
    ("maximum lowered", arg({"n": {**INT, "maximum": 50}}), arg({"n": {**INT, "maximum": 20}}),
     [("t", "argument n: maximum lowered (<= 50 -> <= 20)", True)]),
    ("maximum added", arg({"n": INT}), arg({"n": {**INT, "maximum": 20}}),
     [("t", "argument n: maximum lowered (none -> <= 20)", True)]),
    ("maximum raised", arg({"n": {**INT, "maximum": 20}}), arg({"n": {**INT, "maximum": 50}}),
     [("t", "argument n: maximum raised (<= 20 -> <= 50)", False)]),
    ("integer > 0 is the same as >= 1", arg({"n": {**INT, "exclusiveMinimum": 0}}), arg({"n": {**INT, "minimum": 1}}),
     []),
    ("number >= 0 made > 0", arg({"x": {**NUM, "minimum": 0}}), arg({"x": {**NUM, "exclusiveMinimum": 0}}),
     [("t", "argument x: minimum raised (>= 0 -> > 0)", True)]),
    ("number < 1 made <= 1", arg({"x": {**NUM, "exclusiveMaximum": 1}}), arg({"x": {**NUM, "maximum": 1}}),
     [("t", "argument x: maximum raised (< 1 -> <= 1)", False)]),
    ("maxLength lowered", arg({"s": {**STR, "maxLength": 100}}), arg({"s": {**STR, "maxLength": 50}}),
     [("t", "argument s: maxLength lowered (100 -> 50)", True)]),
    ("maxLength raised", arg({"s": {**STR, "maxLength": 50}}), arg({"s": {**STR, "maxLength": 100}}),
     [("t", "argument s: maxLength raised (50 -> 100)", False)]),
    ("pattern added", arg({"s": STR}), arg({"s": {**STR, "pattern": "^T-[0-9]+$"}}),
     [("t", "argument s: pattern added (None -> '^T-[0-9]+$')", True)]),
    ("pattern changed", arg({"s": {**STR, "pattern": "^T-"}}), arg({"s": {**STR, "pattern": "^TK-"}}),
     [("t", "argument s: pattern changed ('^T-' -> '^TK-')", True)]),
    ("pattern removed", arg({"s": {**STR, "pattern": "^T-"}}), arg({"s": STR}),
     [("t", "argument s: pattern removed ('^T-' -> None)", False)]),
    ("unknown argument names refused", arg({"a": STR}), arg({"a": STR}) | {"inputSchema": {
        "type": "object", "properties": {"a": STR}, "additionalProperties": False}},
     [("t", "arguments: unknown names now refused", True)]),
    ("unknown argument names allowed again", arg({"a": STR}) | {"inputSchema": {
        "type": "object", "properties": {"a": STR}, "additionalProperties": False}}, arg({"a": STR}),
     []),
    ("optional made required", arg({"a": STR}), arg({"a": STR}, ("a",)),
     [("t", "argument a made required", True)]),
    ("required made optional", arg({"a": STR}, ("a",)), arg({"a": STR}),
     [("t", "argument a made optional", False)]),
    ("default changed", arg({"u": {**STR, "default": "metric"}}), arg({"u": {**STR, "default": "imperial"}}),
     [("t", 'argument u: default changed ("metric" -> "imperial")', True)]),
    ("default kept", arg({"u": {**STR, "default": "metric"}}), arg({"u": {**STR, "default": "metric"}}),
     []),
    # issue 32: a new argument that declares a default is safe even when listed as required; a removed default is
    # reported; a set's default in another order (a new hash seed) is no change.
    ("new argument with a default", arg({"a": STR}), arg({"a": STR, "b": {**STR, "default": "x"}}, ("b",)),
     [("t", "new argument b with a default", False)]),
    ("default removed", arg({"u": {**STR, "default": "metric"}}), arg({"u": STR}),
     [("t", 'argument u: default removed (was "metric")', True)]),
    ("default added", arg({"u": STR}), arg({"u": {**STR, "default": "metric"}}),
     [("t", 'argument u: default added ("metric")', False)]),
    ("a set's default in another order", arg({"s": {"type": "array", "uniqueItems": True, "items": STR,
                                                    "default": ["b", "a", "c"]}}),
     arg({"s": {"type": "array", "uniqueItems": True, "items": STR, "default": ["c", "b", "a"]}}),
     []),
    ("a list's default in another order", arg({"s": {"type": "array", "items": STR, "default": ["b", "a"]}}),
     arg({"s": {"type": "array", "items": STR, "default": ["a", "b"]}}),
     [("t", 'argument s: default changed (["b", "a"] -> ["a", "b"])', True)]),
    ("null no longer accepted", arg({"o": NULLABLE_STR}), arg({"o": {**STR, "default": None}}),
     [("t", "argument o: null no longer allowed", True)]),
    ("null now accepted", arg({"o": STR}), arg({"o": {"anyOf": [STR, {"type": "null"}]}}),
     [("t", "argument o: null now allowed", False)]),
    ("anyOf with null in either order is the same", arg({"o": NULLABLE_STR}),
     arg({"o": {"anyOf": [{"type": "null"}, STR], "default": None}}),
     []),
    ("array items narrowed", arg({"tags": {"type": "array", "items": NUM}}), arg({"tags": {"type": "array", "items": INT}}),
     [("t", "argument tags[]: type narrowed (number -> integer)", True)]),
    ("nested object gains a required property",
     arg({"f": {"type": "object", "properties": {"city": STR}}}),
     arg({"f": {"type": "object", "properties": {"city": STR, "day": INT}, "required": ["day"]}}),
     [("t", "new required argument f.day", True)]),
    ("union narrowed to one type", arg({"v": {"anyOf": [INT, STR]}}), arg({"v": INT}),
     [("t", "argument v: type narrowed (integer|string -> integer)", True)]),
    ("one type widened to a union", arg({"v": INT}), arg({"v": {"anyOf": [INT, STR]}}),
     [("t", "argument v: type widened (integer -> integer|string)", False)]),
    ("output field of a nested model removed behind $ref",
     tool("t", outputSchema={"type": "object", "properties": {"items": {"type": "array", "items": {"$ref": "#/$defs/T"}}},
                             "$defs": {"T": {"type": "object", "properties": {"id": STR, "title": STR}}}}),
     tool("t", outputSchema={"type": "object", "properties": {"items": {"type": "array", "items": {"$ref": "#/$defs/T"}}},
                             "$defs": {"T": {"type": "object", "properties": {"id": STR}}}}),
     [("t", "output field items[].title removed", True)]),
    ("output field removed", out({"a": INT, "b": INT}, ("a", "b")), out({"a": INT}, ("a",)),
     [("t", "output field b removed", True)]),
    ("output field added", out({"a": INT}, ("a",)), out({"a": INT, "b": INT}, ("a", "b")),
     [("t", "new output field b", False)]),
    ("output field type changed", out({"a": INT}, ("a",)), out({"a": STR}, ("a",)),
     [("t", "output field a: type changed (integer -> string)", True)]),
    ("output field type widened", out({"a": INT}, ("a",)), out({"a": NUM}, ("a",)),
     [("t", "output field a: type widened (integer -> number)", True)]),
    ("output field type narrowed", out({"a": NUM}, ("a",)), out({"a": INT}, ("a",)),
     [("t", "output field a: type narrowed (number -> integer)", False)]),
    ("output field made nullable", out({"a": INT}, ("a",)), out({"a": {"anyOf": [INT, {"type": "null"}]}}, ("a",)),
     [("t", "output field a: null now allowed", True)]),
    ("output field made optional", out({"a": INT}, ("a",)), out({"a": INT}),
     [("t", "output field a made optional", True)]),
    ("output field made required", out({"a": INT}), out({"a": INT}, ("a",)),
     [("t", "output field a made required", False)]),
    ("output enum widened", out({"s": {**STR, "enum": ["open"]}}, ("s",)), out({"s": {**STR, "enum": ["open", "x"]}}, ("s",)),
     [("t", 'output field s: enum widened (added "x")', True)]),
    ("output enum narrowed", out({"s": {**STR, "enum": ["open", "x"]}}, ("s",)), out({"s": {**STR, "enum": ["open"]}}, ("s",)),
     [("t", 'output field s: enum narrowed (removed "x")', False)]),
    ("output schema removed", out({"a": INT}, ("a",)), tool("t"),
     [("t", "output schema removed", True)]),
    ("output schema added", tool("t"), out({"a": INT}, ("a",)),
     [("t", "output schema added", False)]),
    ("readOnlyHint true to false", tool("t", annotations={"readOnlyHint": True}), tool("t", annotations={"readOnlyHint": False}),
     [("t", "readOnlyHint true -> false", True)]),
    ("readOnlyHint false to true", tool("t"), tool("t", annotations={"readOnlyHint": True}),
     [("t", "readOnlyHint false -> true", False)]),
    ("destructiveHint false to true", tool("t", annotations={"destructiveHint": False}), tool("t"),
     [("t", "destructiveHint false -> true", True)]),
    ("destructiveHint true to false", tool("t"), tool("t", annotations={"destructiveHint": False}),
     [("t", "destructiveHint true -> false", False)]),
    ("idempotentHint true to false", tool("t", annotations={"idempotentHint": True}), tool("t", annotations={}),
     [("t", "idempotentHint true -> false", True)]),
    ("idempotentHint false to true", tool("t", annotations={"idempotentHint": False}), tool("t", annotations={"idempotentHint": True}),
     [("t", "idempotentHint false -> true", False)]),
    ("openWorldHint false to true", tool("t", annotations={"openWorldHint": False}), tool("t"),
     [("t", "openWorldHint false -> true", True)]),
    ("openWorldHint true to false", tool("t"), tool("t", annotations={"openWorldHint": False}),
     [("t", "openWorldHint true -> false", False)]),
    ("spec defaults written out are no change", tool("t"),
     tool("t", annotations={"readOnlyHint": False, "destructiveHint": True, "idempotentHint": False, "openWorldHint": True}),
     []),
    ("description changed", tool("t", description="Old."), tool("t", description="New."),
     [("t", "description changed", False)]),
    ("argument description changed", arg({"a": {**STR, "description": "x"}}), arg({"a": {**STR, "description": "y"}}),
     [("t", "argument a: description changed", False)]),
    ("title changed", tool("t", title="Old"), tool("t", title="New"),
     [("t", "title changed", False)]),
    ("nothing changed", [tool("a", {"x": STR}, ("x",))], [tool("a", {"x": STR}, ("x",))],
     []),
]


@pytest.mark.parametrize("old, new, expected", [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_each_rule(old, new, expected):
    assert rows(old, new) == expected


def test_reasons_say_why():
    by_what = {c.what: c for c in contract.diff([arg({"a": STR, "b": STR}), tool("gone")],
                                                [arg({"a": {**STR, "default": "x", "description": "d"}})])}
    assert "strict server" in by_what["argument b removed"].why and "ignores" in by_what["argument b removed"].why
    assert by_what["argument a: description changed"].why == "safe, but re-read: the model's behaviour may change"
    assert "Unknown tool" in by_what["tool removed"].why
    widened = contract.diff([out({"s": {**STR, "enum": ["a"]}}, ("s",))], [out({"s": {**STR, "enum": ["a", "b"]}}, ("s",))])
    assert widened[0].why == 'a v1 client may now receive "b", which v1 never returned'
    retyped = contract.diff([out({"n": INT}, ("n",))], [out({"n": STR}, ("n",))])
    assert retyped[0].why == "a v1 client may now receive a value of type string, which v1 never returned"
    retyped = contract.diff([arg({"n": INT})], [arg({"n": STR})])
    assert retyped[0].why == "a v1 client that sends a value of type integer is now refused"
    default = contract.diff([arg({"u": {**STR, "default": 1}})], [arg({"u": {**STR, "default": 2}})])[0]
    assert "rely on the default" in default.why and default.verdict == "breaking"


GARBAGE = [None, 1, "x", [], [1], {"type": 5}, {"type": ["string", 3]}, {"enum": "abc"}, {"anyOf": 3},
           {"anyOf": [1, {"type": "null"}]}, {"$ref": "#/nowhere"}, {"$ref": "#/$defs/Self", "$defs": {"Self": {"$ref": "#/$defs/Self"}}},
           {"maximum": "10"}, {"minimum": True}, {"maxLength": "long"}, {"items": 7}, {"properties": [1]},
           {"required": "a"}, {"default": {"a": [1]}}]


@pytest.mark.parametrize("junk", GARBAGE, ids=[json.dumps(j)[:40] for j in GARBAGE])
def test_malformed_schemas_compare_without_crashing(junk):
    shapes = [tool("t", inputSchema=junk), arg({"a": junk}), out({"a": junk}), tool("t", annotations=junk),
              tool("t", outputSchema=junk)]
    for old in shapes:
        for new in [*shapes, arg({"a": STR}, ("a",))]:
            assert all(isinstance(change, contract.Change) for change in contract.diff([old], [new]))


def test_a_recursive_model_is_compared_once_per_level():
    def tree(leaf_type: dict) -> dict:
        node = {"type": "object", "properties": {"label": leaf_type,
                                                 "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}}
        return tool("t", outputSchema={"type": "object", "properties": {"root": {"$ref": "#/$defs/Node"}},
                                       "required": ["root"], "$defs": {"Node": node}})

    assert rows(tree(STR), tree(STR)) == []
    assert rows(tree(STR), tree(INT)) == [("t", "output field root.label: type changed (string -> integer)", True)]


# --- lesson 09's servers -------------------------------------------------------------------------------


def listed(name: str) -> list:
    return wire.run_sync(wire.list_tools, servers.build(name))


def test_the_breaking_v2_gives_exactly_the_lesson_rows():
    assert rows(listed("evolving-v1"), listed("evolving-v2-breaking")) == [
        ("create_ticket", 'argument priority: enum narrowed (removed "urgent")', True),
        ("create_ticket", "new required argument team", True),
        ("fetch_ticket", "new tool (renamed from get_ticket?)", False),
        ("get_ticket", "tool removed (renamed to fetch_ticket?)", True),
        ("search_tickets", "argument limit: maximum lowered (<= 50 -> <= 20)", True),
        ("search_tickets", "argument limit: description changed", False),
        ("search_tickets", "new output field has_more", False),
        ("search_tickets", "output field total removed", True),
    ]


def test_the_safe_v2_gives_exactly_the_lesson_rows():
    assert rows(listed("evolving-v1"), listed("evolving-v2-safe")) == [
        ("add_comment", "new tool", False),
        ("create_ticket", 'argument priority: enum widened (added "critical")', False),
        ("search_tickets", "new optional argument status", False),
    ]


@pytest.mark.parametrize("name", ["evolving-v1", "evolving-v2-breaking", "evolving-v2-safe"])
def test_the_lesson_servers_pass_the_design_review_but_for_create_tickets_missing_annotations(name):
    """Lesson 09 is about the contract, so every version keeps v1's create_ticket as it is, annotations absent
    (lesson 04's subject); the review says so, and says nothing else."""
    from course_lib import review

    assert [(f.tool, f.rule) for f in review.review(listed(name))] == [("create_ticket", "annotations-missing")]


def test_a_server_against_itself_has_no_changes():
    assert contract.diff(listed("evolving-v1"), listed("evolving-v1")) == []




def replayed(name: str) -> list[contract.Replayed]:
    return wire.run_sync(contract.replay, evolving.V1_CALLS, servers.build(name), listed("evolving-v1"))


def test_a_v1_client_fails_on_each_breaking_change():
    outcomes = replayed("evolving-v2-breaking")
    assert [o.tool for o in outcomes] == ["get_ticket", "create_ticket", "search_tickets", "search_tickets", "close_ticket"]
    assert [o.ok for o in outcomes] == [False, False, False, False, True]
    assert outcomes[0].how == "Unknown tool: get_ticket"
    assert "team: Field required" in outcomes[1].how and "priority: Input should be" in outcomes[1].how
    assert "limit: Input should be less than or equal to 20" in outcomes[2].how
    assert outcomes[3].how == "the result does not match v1's output schema: 'total' is a required property"
    assert all("\n" not in o.how and "errors.pydantic.dev" not in o.how for o in outcomes)


@pytest.mark.parametrize("name", ["evolving-v1", "evolving-v2-safe"])
def test_a_v1_client_keeps_working(name):
    assert [(o.ok, o.how) for o in replayed(name)] == [(True, "ok")] * len(evolving.V1_CALLS)


def test_replay_says_when_an_argument_was_ignored():
    (outcome,) = wire.run_sync(contract.replay, [("get_ticket", {"ticket_id": "T-1", "verbose": True})],
                               servers.build("evolving-v1"))
    assert outcome.ok and outcome.how == "ok, but the server ignored verbose (a strict server refuses it)"


def test_new_servers_report_the_package_version():
    found = targets.listing("evolving-v2-safe")
    assert (found.server_name, found.server_version) == ("helpdesk", __version__)


# --- snapshots ---------------------------------------------------------------------------------------------


def test_snapshot_round_trip(tmp_path):
    tools = listed("evolving-v1")
    text = contract.dumps(contract.snapshot(tools, "evolving-v1", "2026-07-28", "helpdesk", __version__))
    assert text == contract.dumps(contract.snapshot(listed("evolving-v1"), "evolving-v1", "2026-07-28", "helpdesk",
                                                    __version__))  # a second fresh server writes the same bytes
    path = tmp_path / "v1.json"
    path.write_text(text)
    loaded = contract.load_snapshot(path)
    assert loaded["tools"] == wire.dump(tools)
    assert {k: loaded[k] for k in ("format", "formatVersion", "target", "protocolVersion", "server")} == {
        "format": "course-snapshot", "formatVersion": 1, "target": "evolving-v1", "protocolVersion": "2026-07-28",
        "server": {"name": "helpdesk", "version": __version__}}
    assert contract.diff(loaded["tools"], tools) == []
    assert text == json.dumps(json.loads(text), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("content, says", [
    ("{ not json", "not JSON (Expecting property name enclosed in double quotes at line 1, column 3)"),
    ('{"tools": []}', 'not a course snapshot (no "format": "course-snapshot")'),
    ('{"format": "course-snapshot", "formatVersion": 7, "tools": []}', "format version 7 is not supported"),
    ('{"format": "course-snapshot", "formatVersion": 1, "tools": [{"title": "x"}]}', '"tools" must be a list'),
])
def test_a_bad_snapshot_file_names_itself_and_the_problem(tmp_path, content, says):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(contract.SnapshotProblem) as caught:
        contract.load_snapshot(path)
    assert str(caught.value).startswith(f"{path}: ") and says in str(caught.value)


# --- the command line -------------------------------------------------------------------------------------


def course(*args: str, cwd=ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "course_lib.cli", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120)


def closed_port() -> int:
    """A loopback port that nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_diff_exits_1_on_a_breaking_change_and_prints_one_row_each():
    result = course("diff", "evolving-v1", "evolving-v2-breaking")
    assert result.returncode == 1, result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines[0].split() == ["tool", "change", "verdict", "why"]
    assert len(lines) == 1 + 8 + 1
    assert lines[4].split()[:4] == ["get_ticket", "tool", "removed", "(renamed"] and " breaking " in lines[4]
    assert lines[-1] == "5 breaking, 3 safe change(s) from evolving-v1 to evolving-v2-breaking"


def test_diff_exits_0_on_safe_changes_and_speaks_json():
    result = course("diff", "evolving-v1", "evolving-v2-safe", "--json")
    assert result.returncode == 0, result.stderr
    assert [(c["tool"], c["breaking"]) for c in json.loads(result.stdout)] == [
        ("add_comment", False), ("create_ticket", False), ("search_tickets", False)]


def test_snapshot_then_diff_against_the_live_server_has_no_changes(tmp_path):
    path = tmp_path / "weather.json"
    assert course("snapshot", "weather", "-o", str(path)).returncode == 0
    assert contract.load_snapshot(path)["target"] == "weather"
    result = course("diff", str(path), "weather")
    assert result.returncode == 0 and result.stdout.strip() == f"no changes from {path} to weather"


def test_snapshot_prints_to_stdout_without_a_file():
    result = course("snapshot", "evolving-v1")
    assert result.returncode == 0 and json.loads(result.stdout)["server"] == {"name": "helpdesk", "version": __version__}


@pytest.mark.parametrize("kind", ["bad JSON", "wrong format", "missing file", "closed port"])
def test_diff_errors_are_one_line_with_exit_2(tmp_path, kind):
    path = tmp_path / "snap.json"
    if kind == "bad JSON":
        path.write_text("[1, 2")
    elif kind == "wrong format":
        path.write_text('{"tools": []}')
    old = f"http://127.0.0.1:{closed_port()}/mcp" if kind == "closed port" else str(path)
    result = course("diff", old, "weather")
    assert result.returncode == 2 and result.stdout == "" and "Traceback" not in result.stderr
    (line,) = result.stderr.strip().splitlines()
    says = {"bad JSON": f"course: {path}: not JSON", "wrong format": f"course: {path}: not a course snapshot",
            "missing file": f"course: {path}: no such snapshot file",
            "closed port": "course: could not list the tools of http://127.0.0.1:"}[kind]
    assert line.startswith(says)
