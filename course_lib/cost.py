"""What tools cost: measuring definitions and results, context pressure, and prompt-cache reuse.

Pure data functions (no drawing; `course_lib.charts` draws what these return). Token counts come
from `course_lib.tokens` (real tiktoken encodings, offline). `listings_across_processes` builds a
server in fresh Python processes with different hash seeds, to catch a `tools/list` that changes
between processes.
"""

from __future__ import annotations

import ast
import builtins
import hashlib
import inspect
import json
import linecache
import os
import re
import subprocess
import sys
import textwrap
import threading
import types
from pathlib import Path
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from course_lib import docstrings, tokens, wire
from course_lib.errors import CourseError

Style = Literal["one-line", "compact", "indented"]
STYLES: dict[str, str] = {
    "one-line": "json.dumps(d): one line, with Python's default separators ', ' and ': '",
    "compact": "json.dumps(d, separators=(',', ':')): no spaces at all",
    "indented": "json.dumps(d, indent=2): one key per line, as a person prints it",
}
CONTEXT_WINDOWS: dict[int, str] = {8_192: "GPT-4", 32_768: "GPT-4-32k", 128_000: "GPT-4o",
                                   200_000: "Claude Sonnet 4.5"}
"""Context windows (tokens) to compare against, each with a model whose window it is."""


# --- measuring a definition ---------------------------------------------------------------------


def as_sent(tool: Any, description: str | None = None, output_schema: bool = True) -> dict:
    """A tool's wire definition as a dict, optionally with another description or without outputSchema."""
    definition = tokens.definition(tool, output_schema=output_schema)
    if description is not None:
        definition["description"] = description
    return definition


def serialize(definition: Any, style: Style = "compact") -> str:
    """A definition (or any wire object) as JSON text in one of the `STYLES`."""
    data = wire.dump(definition)
    if style == "one-line":
        return json.dumps(data, ensure_ascii=False)
    if style == "compact":
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    if style == "indented":
        return json.dumps(data, ensure_ascii=False, indent=2)
    raise ValueError(f"unknown style {style!r}; use one of {', '.join(STYLES)}")


@dataclass(frozen=True)
class Size:
    """A text's length in characters and in tokens of each encoding."""

    chars: int
    tokens: dict[str, int]

    def per_token(self, encoding: str = tokens.DEFAULT_ENCODING) -> float:
        """Characters per token in `encoding`."""
        return self.chars / max(1, self.tokens[encoding])


def size(text: str, encodings: Sequence[str] = tokens.ENCODINGS) -> Size:
    """Characters and token counts (each encoding) of a text."""
    return Size(len(text), {name: tokens.count(text, name) for name in encodings})


@dataclass(frozen=True)
class Method:
    """One way of turning a definition into text to measure."""

    label: str
    style: Style
    description: Literal["3.13", "3.11"]
    output_schema: bool = False


GUIDE_METHOD = Method("the guide's figures", "one-line", "3.13")
"""The *Designing tools* guide's 774 / 189: one-line `json.dumps`, no outputSchema, the docstring as
Python 3.13 compiles it."""

METHODS: tuple[Method, ...] = (
    GUIDE_METHOD,
    Method("truly compact", "compact", "3.13"),
    Method("3.11 docstring, guide's serialization", "one-line", "3.11"),
    Method("3.11 docstring, truly compact", "compact", "3.11"),
    Method("indented, as printed in the guide", "indented", "3.13"),
    Method("compact, with outputSchema", "compact", "3.13", output_schema=True),
)


def measure(tool: Any, fn: Callable[..., Any] | None, method: Method,
            encodings: Sequence[str] = tokens.ENCODINGS) -> Size:
    """The size of `tool`'s definition measured by `method`.

    `fn` is the function whose docstring became the description (None keeps the listed one):
    its docstring is taken as written (what Python 3.11/3.12 send) or dedented (what 3.13 sends),
    so the result is the same on every Python version.
    """
    description = None
    if fn is not None:
        description = docstrings.as_written(fn) if method.description == "3.11" else docstrings.as_python313(fn)
    text = serialize(as_sent(tool, description, output_schema=method.output_schema), method.style)
    return size(text, encodings)


def indentation_cost(fn: Callable[..., Any], encodings: Sequence[str] = tokens.ENCODINGS) -> dict[str, int]:
    """Extra characters and tokens (per encoding) that the as-written docstring adds over the 3.13 form.

    Measured as JSON string values, the way the description travels inside a definition.
    """
    written, dedented = json.dumps(docstrings.as_written(fn)), json.dumps(docstrings.as_python313(fn))
    extra = {"chars": len(written) - len(dedented)}
    extra.update({name: tokens.count(written, name) - tokens.count(dedented, name) for name in encodings})
    return extra


# --- what a host sends the model -------------------------------------------------------------------

PROVIDER_FORMATS: dict[str, str] = {
    "anthropic": 'Anthropic Messages API `tools`: {"name", "description", "input_schema"}',
    "openai": 'OpenAI Chat Completions function tool: {"type": "function", "function": {"name", "description", '
              '"parameters"}}',
}


def host_sends(tool: Any, provider: str = "anthropic", output_schema: bool = False) -> dict:
    """A tool as common hosts pass it to a model: name, description and input schema, in a provider's format.

    MCP's `title`, `annotations` and `outputSchema` are not part of either format; `output_schema=True`
    adds the output schema for a host that forwards it anyway (as an extra key).
    """
    data = wire.dump(tool)
    name, description = data["name"], data.get("description") or ""
    schema = data.get("inputSchema") or {"type": "object", "properties": {}}
    if provider == "anthropic":
        sent: dict = {"name": name, "description": description, "input_schema": schema}
        extra = sent
    elif provider == "openai":
        extra = {"name": name, "description": description, "parameters": schema}
        sent = {"type": "function", "function": extra}
    else:
        raise ValueError(f"unknown provider {provider!r}; use one of {', '.join(PROVIDER_FORMATS)}")
    if output_schema and data.get("outputSchema") is not None:
        extra["outputSchema"] = data["outputSchema"]
    return sent


def host_listing(tools: Iterable[Any], provider: str = "anthropic") -> str:
    """The compact JSON of a tools/list (SDK tools or wire dicts) as a host sends it: `host_sends` per tool."""
    return serialize([host_sends(tool, provider) for tool in tools])


def sent_tokens(tools: Iterable[Any], provider: str = "anthropic", encoding: str = tokens.DEFAULT_ENCODING,
                output_schema: bool = False) -> int:
    """Tokens of every tool as `host_sends` gives it, each as compact JSON."""
    return sum(tokens.count(serialize(host_sends(tool, provider, output_schema)), encoding) for tool in tools)


# --- per-field breakdown --------------------------------------------------------------------------


FIELD_LABELS = {"name": "name", "title": "title", "description": "description", "outputSchema": "output schema",
                "annotations": "annotations"}
FRAME = "schema frame"
"""The part of a definition that is no field's content: inputSchema's type, required and title, and JSON punctuation."""


def _pieces(definition: dict) -> list[tuple[str, str]]:
    """The compact JSON of a definition cut into (part, text) pieces that concatenate to it exactly."""

    def j(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    pieces: list[tuple[str, str]] = []
    for index, (key, value) in enumerate(definition.items()):
        pieces.append((FRAME, "{" if index == 0 else ","))
        if key == "inputSchema" and isinstance(value, dict):
            pieces.append((FRAME, j(key) + ":{"))
            for sub_index, (sub_key, sub_value) in enumerate(value.items()):
                if sub_index:
                    pieces.append((FRAME, ","))
                if sub_key == "properties" and isinstance(sub_value, dict):
                    pieces.append((FRAME, j(sub_key) + ":{"))
                    for param_index, (param, schema) in enumerate(sub_value.items()):
                        if param_index:
                            pieces.append((FRAME, ","))
                        pieces.append((f"param {param}", j(param) + ":" + j(schema)))
                    pieces.append((FRAME, "}"))
                else:
                    pieces.append((FRAME, j(sub_key) + ":" + j(sub_value)))
            pieces.append((FRAME, "}"))
        else:
            pieces.append((FIELD_LABELS.get(key, "other fields"), j(key) + ":" + j(value)))
    pieces.append((FRAME, "}" if pieces else "{}"))
    return pieces


def field_tokens(definition: Any, encoding: str = tokens.DEFAULT_ENCODING) -> list[tuple[str, int]]:
    """Tokens per part of a definition: name, description, each parameter ("param city"), schema frame,
    output schema, annotations.

    The whole definition is encoded once (compact JSON) and each token is given to the part its
    first character belongs to, so the parts add up exactly to `tokens.count(definition)`.
    Each part's key (e.g. `"description":`) counts with the part.
    """
    import bisect

    pieces = _pieces(wire.dump(definition))
    text = "".join(piece for _, piece in pieces)
    starts, position = [], 0
    for _, piece in pieces:
        starts.append(position)
        position += len(piece)
    _, offsets = tokens.encoding(encoding).decode_with_offsets(tokens.encoding(encoding).encode(text, disallowed_special=()))
    totals: dict[str, int] = {}
    for label, _ in pieces:
        totals.setdefault(label, 0)
    for offset in offsets:
        totals[pieces[bisect.bisect_right(starts, offset) - 1][0]] += 1
    order = [label for label in totals if label != FRAME]
    frame_at = next((i for i, label in enumerate(order) if label in ("output schema", "annotations", "other fields")),
                    len(order))
    order.insert(frame_at, FRAME)
    return [(label, totals[label]) for label in order if totals[label] or label != FRAME]


# --- count pressure -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pressure:
    """Tokens a host spends on definitions before the person types, against context windows."""

    servers: int
    tools_per_server: int
    tokens: int
    share: dict[int, float]  # window size -> fraction of it used (may exceed 1)

    @property
    def tools(self) -> int:
        return self.servers * self.tools_per_server


def pressure(tokens_per_tool: float, servers: Iterable[int], tools_per_server: int,
             windows: Sequence[int] = CONTEXT_WINDOWS) -> list[Pressure]:
    """Definition tokens for each count of connected servers, as a share of each window."""
    rows = []
    for count in servers:
        total = round(count * tools_per_server * tokens_per_tool)
        rows.append(Pressure(count, tools_per_server, total, {w: total / w for w in windows}))
    return rows


def definition_tokens(tools: Iterable[Any], encoding: str = tokens.DEFAULT_ENCODING) -> int:
    """Tokens of every definition in a tools/list, each counted as its compact wire JSON."""
    return sum(tokens.count(tool, encoding) for tool in tools)


@dataclass(frozen=True)
class SplitRow:
    """One task: definition tokens per turn with one large server vs only the focused servers it needs."""

    task: str
    areas: tuple[str, ...]
    one_server: int
    focused: int
    tools_one: int
    tools_focused: int


def split_savings(area_tools: dict[str, list[Any]], tasks: dict[str, Sequence[str]],
                  encoding: str = tokens.DEFAULT_ENCODING,
                  measure: Callable[[list[Any]], int] | None = None) -> list[SplitRow]:
    """For each task, the definition tokens (and tool counts) of all areas vs just the areas it needs.

    `measure(tools)` counts a list of tools (default: `definition_tokens`, the whole wire definitions);
    pass e.g. `lambda tools: sent_tokens(tools, "anthropic")` to count what a host sends.
    """
    measure = measure or (lambda tools: definition_tokens(tools, encoding))
    per_area = {area: measure(tools) for area, tools in area_tools.items()}
    all_tokens, all_tools = sum(per_area.values()), sum(len(t) for t in area_tools.values())
    rows = []
    for task, areas in tasks.items():
        unknown = [a for a in areas if a not in per_area]
        if unknown:
            raise ValueError(f"task {task!r} needs unknown area(s) {', '.join(unknown)}")
        rows.append(SplitRow(task, tuple(areas), all_tokens, sum(per_area[a] for a in areas),
                             all_tools, sum(len(area_tools[a]) for a in areas)))
    return rows


# --- results --------------------------------------------------------------------------------------

RESULT_FORMS = ("text only", "structured only", "both")


def result_forms(result: Any) -> dict[str, dict]:
    """The same result in the three forms a tool can return: text block, structuredContent, or both."""
    data = wire.dump(result)
    content, structured = data.get("content", []), data.get("structuredContent")
    if structured is None:
        raise ValueError("this result has no structuredContent; call a tool that has an output schema")
    return {"text only": {"content": content}, "structured only": {"structuredContent": structured},
            "both": {"content": content, "structuredContent": structured}}


def result_tokens(result: Any, encoding: str = tokens.DEFAULT_ENCODING) -> dict[str, int]:
    """Tokens of each result form, each measured as compact JSON."""
    return {form: tokens.count(serialize(body), encoding) for form, body in result_forms(result).items()}


def read_tokens(result: Any, encoding: str = tokens.DEFAULT_ENCODING) -> dict[str, int]:
    """Tokens of each result form as the model reads it: the text blocks' own text, the structured JSON.

    Unlike `result_tokens`, the text is counted as text, not inside a JSON envelope that escapes its
    newlines and quotes; "both" is the sum of the two.
    """
    forms = result_forms(result)
    text = "".join(block.get("text", "") for block in forms["text only"]["content"])
    structured = tokens.count(serialize(forms["structured only"]["structuredContent"]), encoding)
    as_text = tokens.count(text, encoding)
    return {"text only": as_text, "structured only": structured, "both": as_text + structured}


# --- prompt caching -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    """One model request of a conversation and how much of it a prefix cache could serve."""

    turn: int
    prompt_tokens: int
    cached_tokens: int
    written_tokens: int = 0
    """Tokens this request writes to the cache, at the write price; 0 when the prompt is under the minimum."""

    @property
    def share(self) -> float:
        return self.cached_tokens / self.prompt_tokens if self.prompt_tokens else 0.0


def common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    """Length of the longest common prefix of two token lists."""
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def simulate_prefix_cache(prompts: Sequence[Sequence[int]], block: int = 128,
                          minimum: int = 1024) -> list[Turn]:
    """Cached tokens per request under an automatic prefix cache (OpenAI's style).

    Every request is cached. A later request is served from the cache up to its longest
    common prefix with any earlier request, in whole `block`s, if that prefix has at
    least `minimum` tokens. Nothing expires here: the best case for the cache.
    """
    turns = []
    for index, prompt in enumerate(prompts):
        earlier = prompts[:index]
        longest = max((common_prefix(prompt, before) for before in earlier), default=0)
        cached = (longest // block) * block if longest >= minimum else 0
        written = len(prompt) - cached if len(prompt) >= minimum else 0
        turns.append(Turn(index + 1, len(prompt), cached, written))
    return turns


def simulate_breakpoint_cache(prompts: Sequence[Sequence[int]], minimum: int = 1024) -> list[Turn]:
    """Cached tokens per request under an explicit-breakpoint cache (Anthropic's style).

    Each request sets one cache breakpoint at its end, so the cache holds whole earlier prompts. A later
    request is served up to the longest earlier prompt that is an exact prefix of it, if that has at
    least `minimum` tokens. A prompt under `minimum` is neither read from nor written to the cache;
    a longer one writes what it did not read. Nothing expires (every turn within the TTL); the
    20-block lookback and breakpoints inside a prompt are left out.
    """
    turns = []
    for index, prompt in enumerate(prompts):
        hits = [len(earlier) for earlier in prompts[:index]
                if len(earlier) >= minimum and common_prefix(prompt, earlier) == len(earlier)]
        cached = max(hits, default=0)
        written = len(prompt) - cached if len(prompt) >= minimum else 0
        turns.append(Turn(index + 1, len(prompt), cached, written))
    return turns


def input_cost(turns: Sequence[Turn], read: float, write: float = 1.0) -> float:
    """Input cost of a conversation relative to the same prompts with no cache (1.0).

    Cached tokens cost `read` × the base input price; tokens written to the cache cost `write` × (1.0
    where a write costs nothing extra, 1.25 for Anthropic's 5-minute writes, 2.0 for 1-hour writes);
    the rest (a prompt under the cache's minimum, never written) cost the base price.
    """
    sent = sum(turn.prompt_tokens for turn in turns)
    cached = sum(turn.cached_tokens for turn in turns)
    written = sum(turn.written_tokens for turn in turns)
    return (cached * read + written * write + (sent - cached - written)) / sent if sent else 0.0


def conversation_prompts(tool_listings: Sequence[str], system: str, exchanges: Sequence[tuple[str, str]],
                         encoding: str = tokens.DEFAULT_ENCODING) -> list[list[int]]:
    """The token list a host sends on each turn: tool definitions, system prompt, conversation so far.

    `tool_listings[i]` is the serialized tool definitions the host sends on turn i (`host_listing`);
    `exchanges` are (user, assistant) pairs, and turn i ends with user message i.
    """
    if len(tool_listings) != len(exchanges):
        raise ValueError("give one tool listing per turn")
    enc = tokens.encoding(encoding)

    def encode(text: str) -> list[int]:
        return enc.encode(text, disallowed_special=())

    system_tokens, history, prompts = encode(system), [], []
    for listing, (user, assistant) in zip(tool_listings, exchanges):
        prompts.append(encode(listing) + system_tokens + history + encode(user))
        history = history + encode(user) + encode(assistant)
    return prompts


# --- the same server in several processes ---------------------------------------------------------


class ProcessBuildError(CourseError, RuntimeError):
    """A factory that could not be rebuilt and listed in a fresh Python process."""


@dataclass(frozen=True)
class Listing:
    """What one fresh process's server returned from tools/list."""

    hash_seed: int
    names: tuple[str, ...]
    listing: str  # compact JSON of every definition, in listed order

    @property
    def digest(self) -> str:
        """First 12 hex digits of the listing's sha256."""
        return hashlib.sha256(self.listing.encode()).hexdigest()[:12]


def _code_names(code: types.CodeType) -> set[str]:
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _code_names(const)
    return names


def _import_line(name: str, value: Any) -> str | None:
    """An import that recreates global `name` in a fresh process (a module, or an object of a real module), or None."""
    if isinstance(value, types.ModuleType):
        return f"import {value.__name__} as {name}" if value.__name__ != name else f"import {name}"
    module_name = getattr(value, "__module__", None)
    module = sys.modules.get(module_name or "")
    if module is not None and module_name != "__main__" and getattr(module, "__file__", None):
        for attribute in (getattr(value, "__qualname__", None), getattr(value, "__name__", None), name):
            if isinstance(attribute, str) and attribute.isidentifier() and getattr(module, attribute, None) is value:
                return f"from {module_name} import {attribute} as {name}"
    return None


def _source(item: Any) -> str | None:
    """`item`'s source, dedented, or None. A class typed into a notebook cell has no file `inspect` can find
    (Python < 3.13), so its block is read from the cell that holds one of its own methods' code."""
    try:
        return textwrap.dedent(inspect.getsource(item))
    except (OSError, TypeError):
        if not isinstance(item, type):
            return None
    for member in vars(item).values():
        function = getattr(member, "__func__", getattr(member, "fget", member))
        code = getattr(function, "__code__", None)
        if code is None or getattr(function, "__qualname__", "").rpartition(".")[0] != item.__qualname__:
            continue
        lines = linecache.getlines(code.co_filename)
        heading = re.compile(rf"\s*class\s+{re.escape(item.__name__)}\b")
        for start, line in enumerate(lines):
            if heading.match(line):
                end = start + len(inspect.getblock(lines[start:]))
                if start < code.co_firstlineno - 1 < end:
                    while start and lines[start - 1].lstrip().startswith("@"):  # its decorators
                        start -= 1
                    return textwrap.dedent("".join(lines[start:end]))
    return None


def _learners_module(name: Any) -> bool:
    """Whether the module `name` is one of the learner's own: a file in the folder the code runs in (a notebook's,
    where `%%writefile helpers.py` puts it), neither the course's nor installed (red team 10, L6: a helper in a
    module of the learner's own, as 6.2's and 7.3's texts allow, went as an import the fresh process could not run)."""
    module = sys.modules.get(name) if isinstance(name, str) and name != "__main__" else None
    file = getattr(module, "__file__", None)
    if not isinstance(file, str) or name.partition(".")[0] == "course_lib":
        return False
    found = Path(file).resolve()
    installed = {Path(prefix).resolve() for prefix in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
    return found.is_relative_to(Path.cwd().resolve()) and not any(found.is_relative_to(at) for at in installed)


def portable_source(factory: Callable[..., Any]) -> str:
    """Source that rebuilds `factory` in a fresh process from code only: imports, the helper functions and classes
    it uses (by their source), then its own def. Helpers defined beside `factory` (in its module, or in a notebook
    cell) or in a module of the learner's own (`_learners_module`) travel as source, so a learner's own module need
    not be importable there.

    A value computed in this process is never sent, not even as a literal (its order could depend on this
    process's hash seed): `ProcessBuildError` names it, as it does a function whose source cannot be read.
    """
    imports: dict[str, str] = {}
    definitions: dict[str, str] = {}
    modules: dict[str, dict[str, str]] = {}  # a learner's module used as `m.f`: its name here -> {f: f}
    pending = [factory]
    home = getattr(factory, "__module__", None)  # the learner's own code: a fresh process cannot import it
    while pending:
        item = pending.pop()
        label = getattr(item, "__name__", repr(item))
        if getattr(item, "__closure__", None):
            raise ProcessBuildError(f"{label} is defined inside another function; define it at the top level")
        source = _source(item)
        if source is None:
            how = "with class in a cell or file, with a method of its own" if isinstance(item, type) else \
                "with def in a cell or file"
            raise ProcessBuildError(f"cannot read the source of {label!r}; define it {how}")
        if definitions.get(label, source) != source:
            raise ProcessBuildError(f"{label} names two different functions (one of them in a module of yours); "
                                    "give them different names")
        definitions[label] = source
        namespace = getattr(item, "__globals__", None) or vars(sys.modules.get(item.__module__, builtins))
        code = getattr(item, "__code__", None)
        bare = {node.id for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Name)}
        for name in sorted((_code_names(code) & bare) if code else bare):  # bare names: `.register` is no global
            if name in imports or name in definitions or name not in namespace or name == label:
                continue
            value = namespace[name]
            if isinstance(value, types.ModuleType) and _learners_module(value.__name__):
                pending += _module_members(name, value, source, modules.setdefault(name, {}), label)
                continue
            beside = isinstance(value, (types.FunctionType, type)) and (
                getattr(value, "__module__", None) == home or _learners_module(getattr(value, "__module__", None)))
            line = None if beside else _import_line(name, value)
            if line is not None:
                imports[name] = line
            elif isinstance(value, (types.FunctionType, type)):
                pending.append(value)
            else:
                raise ProcessBuildError(
                    f"{label} uses {name!r}, a value computed outside it ({type(value).__name__}), which exists only "
                    "in this session; compute it inside the function")
    namespaces = [f"{name} = types.SimpleNamespace({', '.join(f'{m}={m}' for m in members)})"
                  for name, members in modules.items()]
    if namespaces:
        imports.setdefault("types", "import types")
    return "\n".join([*imports.values(), "", *reversed(definitions.values()), *namespaces])


def _module_members(name: str, module: types.ModuleType, source: str, members: dict[str, str],
                    label: str) -> list[Any]:
    """The functions and classes of a learner's own `module` that `source` uses as `name.attribute`, added to
    `members`: sent as their source and gathered under `name` in the fresh process (red team 11, L1: `import
    helpers` then `helpers.f(...)` went as an import of a file the fresh process does not have)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == name):
            continue
        value = getattr(module, node.attr, None)
        if not isinstance(value, (types.FunctionType, type)) or getattr(value, "__module__", None) != module.__name__:
            raise ProcessBuildError(f"{label} uses {name}.{node.attr}, which is not a function or class defined in "
                                    f"your module {name}; define it there with def or class (or compute it inside "
                                    "the function)")
        if getattr(value, "__name__", None) != node.attr:
            raise ProcessBuildError(f"{label} uses {name}.{node.attr}, another name for {value.__name__}; use "
                                    "the name it is defined with")
        if node.attr not in members:
            members[node.attr] = node.attr
            found.append(value)
    if not members:
        raise ProcessBuildError(f"{label} uses your module {name} itself; import its functions by name "
                                f"(from {name} import ...)")
    return found


_CHILD = """
import json, sys, traceback
payload = json.loads(sys.argv[1])
try:
    namespace = {"__name__": "__course_child__"}
    exec(compile(payload["source"], "<factory>", "exec"), namespace)
    function = namespace[payload["name"]]
    if "arguments" in payload:  # a plain function: its JSON result
        print(json.dumps({"value": function(*payload["arguments"])}))
    else:  # a server factory: its tools/list
        from course_lib import wire
        tools = wire.run_sync(wire.list_tools, function())
        print(json.dumps({"names": [t.name for t in tools], "listing": wire.to_json(tools)}))
except BaseException as error:
    print(json.dumps({"error": f"{type(error).__name__}: {error}"}))
"""


def listings_across_processes(factory: Callable[..., Any], hash_seeds: Sequence[int] = (0, 1, 2, 3),
                              timeout: float = 60) -> list[Listing]:
    """Build `factory()`'s server in one fresh process per hash seed (run side by side) and list its tools.

    Each process runs with `PYTHONHASHSEED` set to its seed, so an order that depends on string
    hashing (a set of names, for instance) shows up as listings that differ.
    """
    return listings_of_source(portable_source(factory), factory.__name__, hash_seeds, timeout)


def listings_of_source(source: str, name: str, hash_seeds: Sequence[int] = (0, 1, 2, 3),
                       timeout: float = 60) -> list[Listing]:
    """`listings_across_processes` for a factory given as `portable_source` text and its function name."""
    found = _in_fresh_processes({"source": source, "name": name}, hash_seeds, timeout, "building the server")
    return [Listing(seed, tuple(data["names"]), data["listing"]) for seed, data in found]


def results_of_source(source: str, name: str, arguments: Sequence[Any], hash_seeds: Sequence[int] = (0, 1, 2, 3),
                      timeout: float = 60) -> list[tuple[int, Any]]:
    """(seed, `name(*arguments)`) for a function given as `portable_source` text, called in one fresh process
    per hash seed; arguments and result are JSON. What differs between them depends on the process."""
    payload = {"source": source, "name": name, "arguments": list(arguments)}
    return [(seed, data["value"]) for seed, data in _in_fresh_processes(payload, hash_seeds, timeout, "the call")]


CHILD_OUTPUT_BYTES = 16 << 20
"""The most a check's fresh process may print (its answer is one JSON line, a few kB for a course server's
listing): more stops them all and fails the check, so that what they print cannot fill the grader's memory."""


def _read_bounded(stream, into: list[bytes], over: threading.Event) -> None:
    """Read `stream` to its end into `into`, or stop (and set `over`) once it holds more than CHILD_OUTPUT_BYTES."""
    held = 0
    while chunk := stream.read1(1 << 16):
        held += len(chunk)
        if held > CHILD_OUTPUT_BYTES:
            over.set()
            return
        into.append(chunk)


def _in_fresh_processes(payload: dict, hash_seeds: Sequence[int | None], timeout: float,
                        doing: str) -> list[tuple[int | None, dict]]:
    """Run `_CHILD` on `payload` in one fresh process per hash seed (None: PYTHONHASHSEED unset), side by side:
    (seed, its JSON answer). What each prints is read as it comes, at most CHILD_OUTPUT_BYTES of it."""
    import tempfile

    from course_lib.workbook import sandbox

    text = json.dumps(payload)
    scratch = tempfile.TemporaryDirectory(prefix="course-seeds-")
    children, limits = [], sandbox.Limits()
    for seed in hash_seeds:  # the learner's code runs in each child: confined, as a submission's kernel is
        run = Path(scratch.name) / f"seed-{seed}"
        run.mkdir()
        confinement = sandbox.Confinement(run, limits)
        confinement.seal()  # it answers on stdout: nothing for it to write in its run folder
        children.append((seed, confinement.popen(
            [sys.executable, "-c", _CHILD, text], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env={} if seed is None else {"PYTHONHASHSEED": str(seed)})))  # None: unset, as on a real host
    printed = threading.Event()  # one of them printed more than CHILD_OUTPUT_BYTES
    readers = []
    for _seed, child in children:
        chunks: list[bytes] = []
        reader = threading.Thread(target=_read_bounded, args=(child.stdout, chunks, printed), daemon=True)
        reader.start()
        readers.append((reader, chunks))
    found = []
    over = threading.Event()  # their processes together over the sandbox's memory bound: all stopped
    watch = threading.Thread(target=_watch_memory, args=(children, over, limits.sandbox_memory_bytes),
                             daemon=True)
    watch.start()
    try:
        for (seed, child), (reader, chunks) in zip(children, readers):
            reader.join(timeout)
            if printed.is_set():
                raise ProcessBuildError(f"in the fresh processes, {doing} printed more than "
                                        f"{CHILD_OUTPUT_BYTES >> 20} MB")
            try:
                child.wait(0 if reader.is_alive() else timeout)
            except subprocess.TimeoutExpired:
                raise ProcessBuildError(f"{doing} took longer than {timeout:g} s") from None
            if over.is_set():
                raise ProcessBuildError(f"in the fresh processes, {doing} used more than "
                                        f"{limits.sandbox_memory_bytes >> 20} MB of memory together")
            out = b"".join(chunks).decode("utf-8", "replace")
            last = out.strip().splitlines()[-1] if out.strip() else ""
            try:
                data = json.loads(last)
            except json.JSONDecodeError:
                raise ProcessBuildError(f"the process with hash seed {seed} printed no answer") from None
            if "error" in data:
                raise ProcessBuildError(f"in a fresh process, {payload['name']}() raised {data['error']}"[:300])
            found.append((seed, data))
    finally:
        for _seed, child in children:
            _stop_group(child)
            child.wait()
        for (_seed, child), (reader, _chunks) in zip(children, readers):
            reader.join(10)  # the child is gone: its output ends (unless a process it left holds it open)
            if not reader.is_alive():
                child.stdout.close()
        over.set()
        watch.join()
        scratch.cleanup()
    return found


def _stop_group(child: subprocess.Popen) -> None:
    """SIGKILL `child` and everything it started (it runs in a session of its own)."""
    import signal

    try:
        os.killpg(child.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, AttributeError):
        if child.poll() is None:
            child.kill()


def _watch_memory(children: list, over: threading.Event, bound: int) -> None:
    """Until `over` is set: stop all `children` once their process trees together hold more than `bound` bytes
    of resident memory (one sandbox's bound), as a kernel's watcher does."""
    from course_lib.workbook import kernel, sandbox

    while not over.wait(kernel.WATCH_SECONDS):
        if sum(sandbox.resident_bytes(child.pid) for _seed, child in children) > bound:
            over.set()
            for _seed, child in children:
                _stop_group(child)
            return


async def list_requests_per_user(server: Any, users: Sequence[str] = ("alice", "bob")) -> list[int]:
    """`tools/list` requests each user's client sends, one after the other, sharing one public cache store."""
    store, counts = wire.shared_cache_store(), []
    for user in users:
        tap = wire.Tap(server)
        async with wire.connect(tap, cache=wire.client_cache(store, user, share_public=True)) as client:
            await client.list_tools()
        counts.append(wire.requests_sent(tap.frames, "tools/list"))
    return counts
