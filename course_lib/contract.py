"""Tool definitions as a contract: snapshots of `tools/list`, the diff between two, and a v1 client replayed.

The question every rule answers: does a client written against the OLD tools still work against the
NEW ones? Arguments flow from client to server, so a NEW schema that accepts fewer values breaks
callers; results flow back, so a NEW output schema that may return more (or other) values breaks
readers. Everything here works on wire dicts (camelCase, no nulls), as a client sees them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from course_lib import wire
from course_lib.errors import BadFile

FORMAT = "course-snapshot"
"""The `format` value of every snapshot file."""
FORMAT_VERSION = 1
"""The snapshot layout this module writes and reads."""

Effect = Literal["narrowed", "widened", "changed"]
"""What a schema change does to the set of values it allows (changed: neither a subset nor a superset)."""

_NONE = object()
_SIZES = ("minLength", "maxLength", "minItems", "maxItems")
RE_READ = "safe, but re-read: the model's behaviour may change"
# Annotation hints and their spec defaults, with the value that makes a tool less safe.
_HINTS = (("readOnlyHint", False, False), ("destructiveHint", True, True), ("idempotentHint", False, False),
          ("openWorldHint", True, True))


@dataclass(frozen=True)
class Change:
    """One difference between two tool lists, judged from a v1 client's side."""

    tool: str
    what: str
    breaking: bool
    why: str

    @property
    def verdict(self) -> str:
        """"breaking" or "safe"."""
        return "breaking" if self.breaking else "safe"


class SnapshotProblem(BadFile):
    """A file that is not a readable snapshot; the message is one line naming the file."""


# --- snapshots ---------------------------------------------------------------------------------------


def snapshot(tools: Iterable[Any], target: str = "", protocol_version: str = "", server_name: str = "",
             server_version: str = "", sdk: str | None = None) -> dict[str, Any]:
    """A snapshot: a small header and the tools in wire form, in listing order.

    `sdk` ("python", "typescript"), when the target shows it, lets `course review FILE` give fixes in that SDK's idiom.
    """
    server = {key: value for key, value in (("name", server_name), ("version", server_version)) if value}
    return {"format": FORMAT, "formatVersion": FORMAT_VERSION, "target": target,
            "protocolVersion": protocol_version, "server": server, **({"sdk": sdk} if sdk else {}),
            "tools": [_sets_sorted(tool) for tool in wire.dump(list(tools))]}


UNSTABLE = "x-course-unstable"
"""The key `course snapshot` adds to a schema whose default came back in another order from a second, fresh run."""


def mark_unstable(first: Any, second: Any) -> Any:
    """`first` (a tool list or schema from one run of a server) with each default that a second, fresh run gave in
    another order sorted and marked `x-course-unstable`: a list built from a set follows the hash seed."""
    if isinstance(first, list) and isinstance(second, list) and len(first) == len(second):
        return [mark_unstable(a, b) for a, b in zip(first, second)]
    if not isinstance(first, dict) or not isinstance(second, dict):
        return first
    found = {key: mark_unstable(value, second.get(key)) for key, value in first.items()}
    had, has = first.get("default"), second.get("default")
    if isinstance(had, list) and isinstance(has, list) and had != has and \
            sorted(had, key=_set_key) == sorted(has, key=_set_key):
        found["default"] = sorted(had, key=_set_key)
        found[UNSTABLE] = "the default came back in another order from a second run (a set's order follows the hash seed)"
    return found


def _set_key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _sets_sorted(schema: Any) -> Any:
    """A schema whose set-valued defaults are sorted: an array with `uniqueItems` (a Python set, a TypeScript Set)
    lists its default in whatever order the server's hash seed gave it; sorted, two runs of one build agree."""
    if isinstance(schema, list):
        return [_sets_sorted(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    found = {key: _sets_sorted(value) for key, value in schema.items()}
    if found.get("uniqueItems") is True and isinstance(found.get("default"), list):
        found["default"] = sorted(found["default"], key=_set_key)
    return found


def dumps(snap: dict[str, Any]) -> str:
    """A snapshot as deterministic JSON text (sorted keys, two-space indent, final newline)."""
    return json.dumps(snap, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def load_snapshot(path: str | Path) -> dict[str, Any]:
    """A snapshot read from `path` and checked; `SnapshotProblem` says which file and what is wrong."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SnapshotProblem(f"{path}: no such snapshot file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise SnapshotProblem(f"{path}: cannot read it ({type(error).__name__})") from None
    except json.JSONDecodeError as error:
        raise SnapshotProblem(f"{path}: not JSON ({error.msg} at line {error.lineno}, column {error.colno})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SnapshotProblem(f'{path}: not a course snapshot (no "format": "{FORMAT}"); write one with `course snapshot`')
    if data.get("formatVersion") != FORMAT_VERSION:
        raise SnapshotProblem(f"{path}: snapshot format version {data.get('formatVersion')!r} is not supported "
                              f"(this course reads version {FORMAT_VERSION})")
    tools = data.get("tools")
    if not isinstance(tools, list) or not all(isinstance(t, dict) and isinstance(t.get("name"), str) for t in tools):
        raise SnapshotProblem(f'{path}: "tools" must be a list of tool definitions, each with a "name"')
    return data


# --- JSON Schema, reduced to what a diff compares ---------------------------------------------------


@dataclass
class _Shape:
    """The facets of one JSON Schema that decide which values it allows."""

    schema: dict[str, Any]
    types: frozenset[str] | None = None  # None: any type
    nullable: bool = False
    enum: frozenset[str] | None = None  # JSON-encoded values; None: no enum
    lower: tuple[float, bool] | None = None  # (bound, exclusive)
    upper: tuple[float, bool] | None = None
    sizes: dict[str, int] = field(default_factory=dict)  # minLength, maxLength, minItems, maxItems


def _dict(value: Any) -> dict[str, Any]:
    """`value` if it is a JSON object, else an empty one (a malformed definition compares as empty)."""
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    """`value` if it is a JSON array, else an empty one."""
    return value if isinstance(value, list) else []


def _number(value: Any) -> bool:
    """Whether `value` is a JSON number (not a boolean)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _resolve(schema: Any, root: dict[str, Any]) -> dict[str, Any]:
    """`schema` with local `$ref`s (`#/$defs/...`) followed; sibling keys such as `default` are kept."""
    seen: set[str] = set()
    while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and schema["$ref"].startswith("#/"):
        ref = schema["$ref"]
        if ref in seen:
            break
        seen.add(ref)
        target: Any = root
        for part in ref[2:].split("/"):
            target = target.get(part.replace("~1", "/").replace("~0", "~"), {}) if isinstance(target, dict) else {}
        schema = {**target, **{key: value for key, value in schema.items() if key != "$ref"}}
    return schema if isinstance(schema, dict) else {}


def _json_type(value: Any) -> str:
    """The JSON Schema type name of a JSON value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    return {float: "number", str: "string", list: "array", dict: "object"}.get(type(value), "string")


def _shape(schema: Any, root: dict[str, Any]) -> _Shape:
    """The facets of `schema`: `anyOf`/`oneOf` with null become nullable, one other branch is merged in."""
    schema = _resolve(schema, root)
    branches = schema.get("anyOf") or schema.get("oneOf")
    nullable = False
    if isinstance(branches, list):
        resolved = [_resolve(branch, root) for branch in branches]
        others = [branch for branch in resolved if branch.get("type") != "null"]
        nullable = len(others) < len(resolved)
        outer = {key: value for key, value in schema.items() if key not in ("anyOf", "oneOf")}
        if len(others) == 1:
            schema = {**others[0], **outer}
        else:
            shapes = [_shape(branch, root) for branch in others]
            types = None if any(s.types is None for s in shapes) else frozenset().union(*(s.types for s in shapes))
            enum = None if any(s.enum is None for s in shapes) else frozenset().union(*(s.enum for s in shapes))
            return _Shape(schema, types, nullable or any(s.nullable for s in shapes), enum)
    raw_type = schema.get("type")
    types = {t for t in ([raw_type] if isinstance(raw_type, str) else _list(raw_type)) if isinstance(t, str)}
    values = [schema["const"]] if "const" in schema else _list(schema["enum"]) if "enum" in schema else None
    if values is not None and not types:
        types = {_json_type(value) for value in values}
    nullable = nullable or "null" in types or (values is not None and None in values)
    types.discard("null")
    enum = None if values is None else frozenset(json.dumps(v, sort_keys=True) for v in values if v is not None)
    integer = types == {"integer"}
    return _Shape(schema, frozenset(types) or None, nullable, enum,
                  _bound(schema, "minimum", "exclusiveMinimum", integer, +1),
                  _bound(schema, "maximum", "exclusiveMaximum", integer, -1),
                  {key: schema[key] for key in _SIZES if _number(schema.get(key))})


def _bound(schema: dict[str, Any], inclusive: str, exclusive: str, integer: bool, side: int) -> tuple[float, bool] | None:
    """One numeric bound as (value, exclusive); for integers `> 0` becomes `>= 1`, and the tighter bound wins."""
    found: list[tuple[float, bool]] = []
    if _number(schema.get(inclusive)):
        found.append((schema[inclusive], schema.get(exclusive) is True))  # draft 4: exclusiveMinimum is a flag
    if _number(schema.get(exclusive)):
        found.append((schema[exclusive], True))
    if integer:
        found = [((math.floor(v) + 1 if side > 0 else math.ceil(v) - 1) if excl else v, False) for v, excl in found]
    if not found:
        return None
    return max(found) if side > 0 else min(found, key=lambda b: (b[0], not b[1]))


def _covers(new: frozenset[str] | None, old: frozenset[str] | None) -> bool:
    """Whether every value of the `old` types is also of the `new` types (integer is a number)."""
    if new is None:
        return True
    if old is None:
        return False
    return all(t in new or (t == "integer" and "number" in new) for t in old)


def _show_types(types: frozenset[str] | None) -> str:
    """Types as text: `integer|string`, or `any`."""
    return "|".join(sorted(types)) if types else "any"


def _show_bound(bound: tuple[float, bool] | None, below: bool) -> str:
    """A bound as text: `>= 1`, `< 10`, or `none`."""
    if bound is None:
        return "none"
    value = int(bound[0]) if float(bound[0]).is_integer() else bound[0]
    return f"{'>' if below else '<'}{'' if bound[1] else '='} {value}"


def _tighter(old: tuple[float, bool] | None, new: tuple[float, bool] | None, below: bool) -> Effect | None:
    """Whether a lower (`below`) or upper bound got narrowed, widened, or stayed."""
    if old == new:
        return None
    if new is None:
        return "widened"
    if old is None:
        return "narrowed"
    sign = 1 if below else -1
    key_old, key_new = (sign * old[0], old[1]), (sign * new[0], new[1])
    return "narrowed" if key_new > key_old else "widened"


# --- comparing schemas -----------------------------------------------------------------------------

Role = Literal["input", "output"]


@dataclass(frozen=True)
class _Fact:
    """One schema difference before it is judged: what, its effect, and the values that now differ."""

    what: str
    effect: Effect
    refused: str  # values the old schema allowed and the new one does not
    admitted: str  # values the new schema allows and the old one did not


def _judge(tool: str, label: str, fact: _Fact, role: Role) -> Change:
    """A fact judged for the direction values flow: narrowed input or widened output breaks a v1 client."""
    breaking = fact.effect == "changed" or (fact.effect == "narrowed") == (role == "input")
    if role == "input":
        why = (f"a v1 client that sends {fact.refused} is now refused" if breaking
               else "every value a v1 client sends is still accepted")
    else:
        why = (f"a v1 client may now receive {fact.admitted}, which v1 never returned" if breaking
               else "v2 returns only values that v1 could already return")
    return Change(tool, f"{label}: {fact.what}", breaking, why)


def _facts(old: _Shape, new: _Shape) -> Iterator[_Fact]:
    """The differences in allowed values between two schemas of the same argument or field."""
    if old.types != new.types:
        lost, gained = not _covers(new.types, old.types), not _covers(old.types, new.types)
        if lost or gained:
            effect: Effect = "changed" if lost and gained else "narrowed" if lost else "widened"
            word = {"changed": "type changed", "narrowed": "type narrowed", "widened": "type widened"}[effect]
            yield _Fact(f"{word} ({_show_types(old.types)} -> {_show_types(new.types)})", effect,
                        f"a value of type {_show_types(old.types)}", f"a value of type {_show_types(new.types)}")
            if lost:
                return  # the other facets of a different type are noise
    if old.nullable != new.nullable:
        yield _Fact("null no longer allowed" if old.nullable else "null now allowed",
                    "narrowed" if old.nullable else "widened", "null", "null")
    yield from _enum_facts(old.enum, new.enum)
    for below, name, old_bound, new_bound in ((True, "minimum", old.lower, new.lower),
                                              (False, "maximum", old.upper, new.upper)):
        effect = _tighter(old_bound, new_bound, below)
        if effect:
            moved = ("raised" if below else "lowered") if effect == "narrowed" else ("lowered" if below else "raised")
            side = "below" if below else "above"
            yield _Fact(f"{name} {moved} ({_show_bound(old_bound, below)} -> {_show_bound(new_bound, below)})",
                        effect, f"a value {side} the new bound", f"a value {side} the old bound")
    for key in _SIZES:
        below = key.startswith("min")
        old_size, new_size = old.sizes.get(key), new.sizes.get(key)
        effect = _tighter(None if old_size is None else (old_size, False),
                          None if new_size is None else (new_size, False), below)
        if effect:
            moved = ("raised" if below else "lowered") if effect == "narrowed" else ("lowered" if below else "raised")
            unit = "items" if "Items" in key else "characters"
            yield _Fact(f"{key} {moved} ({old_size if old_size is not None else 'none'} -> "
                        f"{new_size if new_size is not None else 'none'})", effect,
                        f"{'fewer' if below else 'more'} {unit} than the new limit",
                        f"{'fewer' if below else 'more'} {unit} than the old limit")
    for key in ("pattern", "format"):
        before, after = old.schema.get(key), new.schema.get(key)
        if before != after:
            effect = "widened" if after is None else "narrowed" if before is None else "changed"
            yield _Fact(f"{key} {'removed' if after is None else 'added' if before is None else 'changed'} "
                        f"({before!r} -> {after!r})", effect, f"a value the new {key} rejects",
                        f"a value the old {key} rejects")


def _enum_facts(old: frozenset[str] | None, new: frozenset[str] | None) -> Iterator[_Fact]:
    """Enum values removed (narrowed) and added (widened); a new enum where there was none narrows."""
    if old == new:
        return
    if new is None:
        yield _Fact("enum removed (any value allowed)", "widened", "", "a value outside the old list")
    elif old is None:
        yield _Fact(f"now limited to {', '.join(sorted(new))}", "narrowed", "a value outside that list", "")
    else:
        if old - new:
            yield _Fact(f"enum narrowed (removed {', '.join(sorted(old - new))})", "narrowed",
                        " or ".join(sorted(old - new)), "")
        if new - old:
            yield _Fact(f"enum widened (added {', '.join(sorted(new - old))})", "widened", "",
                        " or ".join(sorted(new - old)))


def _compare_value(tool: str, old: Any, new: Any, roots: tuple[dict, dict], path: str, role: Role,
                   seen: frozenset = frozenset()) -> Iterator[Change]:
    """The changes to one argument or output field, including its items and nested properties."""
    refs = (_dict(old).get("$ref"), _dict(new).get("$ref"))
    if None not in refs:  # a recursive model (a tree of nodes) is compared once per pair of definitions
        if refs in seen:
            return
        seen = seen | {refs}
    label = f"argument {path}" if role == "input" else f"output field {path}"
    before, after = _shape(old, roots[0]), _shape(new, roots[1])
    for fact in _facts(before, after):
        yield _judge(tool, label, fact, role)
    had, has = (_sets_sorted(shape.schema).get("default", _NONE) for shape in (before, after))
    unstable = UNSTABLE in before.schema or UNSTABLE in after.schema
    if role == "input" and unstable and isinstance(had, list) and isinstance(has, list) and had != has and \
            sorted(had, key=_set_key) == sorted(has, key=_set_key):
        yield Change(tool, f"{label}: default order unstable", False,
                     "the same values in another order; the server's own runs disagree on it (a set's order)")
    elif role == "input" and _NONE not in (had, has) and had != has:
        yield Change(tool, f"{label}: default changed ({json.dumps(had)} -> {json.dumps(has)})", True,
                     "callers that rely on the default now get a different result")
    elif role == "input" and had is not _NONE and has is _NONE:
        yield Change(tool, f"{label}: default removed (was {json.dumps(had)})", True,
                     "callers that leave it out relied on the declared default; v2 promises none")
    elif role == "input" and had is _NONE and has is not _NONE:
        yield Change(tool, f"{label}: default added ({json.dumps(has)})", False,
                     "callers that leave it out now get a stated default")
    if (before.schema.get("description") or "") != (after.schema.get("description") or ""):
        yield Change(tool, f"{label}: description changed", False, RE_READ)
    if "items" in before.schema and "items" in after.schema:
        yield from _compare_value(tool, before.schema["items"], after.schema["items"], roots, f"{path}[]", role, seen)
    if "properties" in before.schema or "properties" in after.schema:
        yield from _compare_object(tool, before.schema, after.schema, roots, f"{path}.", role, seen)


def _compare_object(tool: str, old: dict, new: dict, roots: tuple[dict, dict], prefix: str, role: Role,
                    seen: frozenset = frozenset()) -> Iterator[Change]:
    """The changes to an object's properties: removed, added, required or not, and each one's schema."""
    old_props, new_props = _dict(old.get("properties")), _dict(new.get("properties"))
    old_required = {name for name in _list(old.get("required")) if isinstance(name, str)}
    new_required = {name for name in _list(new.get("required")) if isinstance(name, str)}
    thing = "argument" if role == "input" else "output field"
    for name in sorted(old_props.keys() | new_props.keys()):
        path, label = f"{prefix}{name}", f"{thing} {prefix}{name}"
        if name not in new_props:
            why = ("a strict server refuses a v1 call that sends it; SDK 2.3 silently ignores unknown arguments, "
                   "so the call runs without what the caller asked for" if role == "input"
                   else "a v1 client that reads it finds nothing")
            yield Change(tool, f"{label} removed", True, why)
        elif name not in old_props:
            required = name in new_required
            defaulted = "default" in _dict(new_props[name]) or "default" in _resolve(_dict(new_props[name]), roots[1])
            if role == "input" and required and defaulted:
                yield Change(tool, f"new {label} with a default", False,
                             "v1 clients leave it out and get the declared default (it is listed as required: "
                             "check that the server fills in the default rather than refusing)")
            elif role == "input":
                yield Change(tool, f"new {'required' if required else 'optional'} {label}", required,
                             "v1 clients do not send it, so their calls are refused" if required
                             else "v1 clients leave it out and get the default")
            else:
                yield Change(tool, f"new {label}", False, "v1 clients ignore fields they do not know")
        else:
            if (name in old_required) != (name in new_required):
                made = "required" if name in new_required else "optional"
                breaking = (made == "required") == (role == "input")
                why = {("input", True): "v1 clients that leave it out are now refused",
                       ("input", False): "v1 clients may still send it",
                       ("output", True): "a v1 client that reads it may find nothing",
                       ("output", False): "v2 always returns it"}[(role, breaking)]
                yield Change(tool, f"{label} made {made}", breaking, why)
            yield from _compare_value(tool, old_props[name], new_props[name], roots, path, role, seen)
    if role == "input" and old.get("additionalProperties") is not False and new.get("additionalProperties") is False:
        yield Change(tool, f"{'arguments' if not prefix else thing + ' ' + prefix[:-1]}: unknown names now refused",
                     True, "a v1 client that sends an extra name is now refused")


def _without_titles(schema: Any) -> Any:
    """A schema with every `title` removed (the SDK titles an input schema after the function)."""
    if isinstance(schema, dict):
        return {key: _without_titles(value) for key, value in schema.items() if key != "title"}
    if isinstance(schema, list):
        return [_without_titles(item) for item in schema]
    return schema


# --- comparing tools ---------------------------------------------------------------------------------


def _compare_tool(old: dict[str, Any], new: dict[str, Any]) -> Iterator[Change]:
    """The changes to one tool that keeps its name."""
    name = old["name"]
    old_in, new_in = _dict(old.get("inputSchema")), _dict(new.get("inputSchema"))
    yield from _compare_object(name, _resolve(old_in, old_in), _resolve(new_in, new_in), (old_in, new_in), "", "input")
    old_out, new_out = _dict(old.get("outputSchema")), _dict(new.get("outputSchema"))
    if old_out and not new_out:
        yield Change(name, "output schema removed", True, "a v1 client that reads structuredContent gets none")
    elif new_out and not old_out:
        yield Change(name, "output schema added", False, "v1 clients did not rely on structured content")
    elif old_out and new_out:
        yield from _compare_object(name, _resolve(old_out, old_out), _resolve(new_out, new_out), (old_out, new_out),
                                   "", "output")
    if (old.get("description") or "") != (new.get("description") or ""):
        yield Change(name, "description changed", False, RE_READ)
    old_ann, new_ann = _dict(old.get("annotations")), _dict(new.get("annotations"))
    if (old.get("title"), old_ann.get("title")) != (new.get("title"), new_ann.get("title")):
        yield Change(name, "title changed", False, "hosts show the new title; clients still call the tool by name")
    for hint, default, unsafe in _HINTS:
        before, after = old_ann.get(hint, default), new_ann.get(hint, default)
        if before != after:
            less_safe = after == unsafe
            yield Change(name, f"{hint} {str(before).lower()} -> {str(after).lower()}", less_safe,
                         "a host that skipped confirmation on the v1 hints now under-protects the person"
                         if less_safe else "hosts may ask for confirmation less often; the server still checks")


def diff(old_tools: Iterable[Any], new_tools: Iterable[Any]) -> list[Change]:
    """Every change from the old tool list to the new one, as a v1 client experiences it, by tool name."""
    old = {tool["name"]: tool for tool in wire.dump(list(old_tools))}
    new = {tool["name"]: tool for tool in wire.dump(list(new_tools))}
    shape = lambda tool: _without_titles(tool.get("inputSchema") or {})  # noqa: E731
    changes: list[Change] = []
    for name in sorted(old.keys() | new.keys()):
        if name in old and name in new:
            changes.extend(_compare_tool(old[name], new[name]))
        elif name in old:
            twins = [other for other in sorted(new.keys() - old.keys()) if shape(new[other]) == shape(old[name])]
            renamed = f" (renamed to {' or '.join(twins)}?)" if twins else ""
            changes.append(Change(name, f"tool removed{renamed}", True, "v1 clients that call it get 'Unknown tool'"))
        else:
            twins = [other for other in sorted(old.keys() - new.keys()) if shape(old[other]) == shape(new[name])]
            renamed = f" (renamed from {' or '.join(twins)}?)" if twins else ""
            changes.append(Change(name, f"new tool{renamed}", False, "v1 clients do not know it and are unaffected"))
    return changes


# --- a v1 client against a new server ------------------------------------------------------------------


@dataclass(frozen=True)
class Replayed:
    """One recorded v1 call made again: whether the v1 client still gets what it expects, and how not."""

    tool: str
    arguments: dict[str, Any]
    ok: bool
    how: str


def _error_summary(text: str) -> str:
    """An SDK error text in one line: pydantic's per-field messages kept, its links and inputs dropped."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    if not lines:
        return "error (no message)"
    first, parts, current = lines[0], [], None
    for line in lines[1:]:
        if not line.startswith(" "):
            current = line.strip()
        elif current and not line.strip().startswith("For further information"):
            parts.append(f"{current}: {line.strip().split(' [type=')[0]}")
    return f"{first} ({'; '.join(parts)})" if parts else first


def _against_v1(result: dict[str, Any], v1_tool: dict[str, Any] | None) -> str | None:
    """Why a successful result does not match the v1 output schema, or None."""
    schema = (v1_tool or {}).get("outputSchema")
    if not schema:
        return None
    import jsonschema

    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(result.get("structuredContent", {})),
                    key=lambda error: list(error.absolute_path))
    return None if not errors else f"the result does not match v1's output schema: {errors[0].message}"


async def replay(calls: Iterable[tuple[str, dict[str, Any]]], server: Any,
                 v1_tools: Iterable[Any] | None = None) -> list[Replayed]:
    """Make each recorded v1 call against `server` in process; with `v1_tools`, also check results against v1's output schemas."""
    from mcp import MCPError

    expected = {tool["name"]: tool for tool in wire.dump(list(v1_tools or []))}
    outcomes: list[Replayed] = []
    async with wire.connect(server) as client:
        listed = {tool["name"]: tool for tool in wire.dump(list((await client.list_tools()).tools))}
        for name, arguments in calls:
            try:
                result = wire.dump(await client.call_tool(name, arguments))
            except MCPError as error:
                outcomes.append(Replayed(name, arguments, False, f"protocol error {error.code}: {error.message}"))
                continue
            except RuntimeError as error:  # the SDK client validates results against the new output schema
                outcomes.append(Replayed(name, arguments, False, _error_summary(str(error))))
                continue
            if result.get("isError"):
                text = "\n".join(b.get("text", "") for b in result.get("content", []) if b.get("type") == "text")
                outcomes.append(Replayed(name, arguments, False, _error_summary(text)))
                continue
            mismatch = _against_v1(result, expected.get(name))
            known = (listed.get(name, {}).get("inputSchema") or {}).get("properties") or {}
            ignored = sorted(set(arguments) - set(known))
            how = mismatch or (f"ok, but the server ignored {', '.join(ignored)} (a strict server refuses it)"
                               if ignored else "ok")
            outcomes.append(Replayed(name, arguments, mismatch is None, how))
    return outcomes
