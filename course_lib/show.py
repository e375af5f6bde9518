"""Notebook rendering of tools, results, errors and wire frames.

Every object here renders twice: as HTML for people in JupyterLab and as a deterministic
plain-text form that nbval compares (no ids, addresses, times or unordered sets).
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable
from typing import Any

from course_lib import wire

_STYLE = (
    "<style>.course-card{font-family:var(--jp-code-font-family,monospace);font-size:12px;"
    "border:1px solid #8c8c8c;border-radius:6px;padding:6px 10px;margin:4px 0;max-width:100%}"
    ".course-card table{border-collapse:collapse;margin:4px 0}.course-card th,.course-card td"
    "{border:1px solid #c8c8c8;padding:2px 6px;text-align:left;vertical-align:top}"
    ".course-ok{border-left:6px solid #0072b2}.course-err{border-left:6px solid #d55e00}"
    ".course-side{display:flex;gap:12px;align-items:flex-start}.course-side>div{flex:1;min-width:0}"
    ".course-card pre{white-space:pre-wrap;word-break:break-word;margin:2px 0}</style>"
)


class Rendered:
    """A piece of output with a text/plain and a text/html form."""

    def __init__(self, text: str, html_body: str):
        self.text, self.html = text, html_body

    def __repr__(self) -> str:
        return self.text

    def _repr_html_(self) -> str:
        return _STYLE + self.html


def _json(value: Any, indent: int | None = None) -> str:
    separators = None if indent else (", ", ": ")
    return json.dumps(value, indent=indent, ensure_ascii=False, separators=separators)


def _pre(text: str) -> str:
    return f"<pre>{html.escape(text)}</pre>"


def _table(header: list[str], rows: list[list[str]]) -> tuple[str, str]:
    """A table as aligned text and as HTML."""
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip() for row in [header, *rows]]
    head = "".join(f"<th>{html.escape(cell)}</th>" for cell in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return "\n".join(lines), f"<table><tr>{head}</tr>{body}</table>"


# --- tool definitions ---------------------------------------------------------------------------


def _type_of(schema: dict) -> str:
    if "$ref" in schema:
        return schema["$ref"].rsplit("/", 1)[-1]
    if "anyOf" in schema:
        return " | ".join(_type_of(option) for option in schema["anyOf"])
    kind = schema.get("type", "any")
    if kind == "array":
        return f"array of {_type_of(schema.get('items', {}))}"
    return kind


def _constraints(schema: dict) -> str:
    parts = []
    if "enum" in schema:
        parts.append("one of " + " | ".join(_json(v) for v in schema["enum"]))
    low, high = schema.get("minimum"), schema.get("maximum")
    if low is not None or high is not None:
        parts.append(f"{'' if low is None else f'{low} ≤ '}x{'' if high is None else f' ≤ {high}'}")
    for key, label in (("exclusiveMinimum", "x >"), ("exclusiveMaximum", "x <")):
        if key in schema:
            parts.append(f"{label} {schema[key]}")
    lo_len, hi_len = schema.get("minLength"), schema.get("maxLength")
    if lo_len is not None or hi_len is not None:
        parts.append(f"length {lo_len or 0}..{'' if hi_len is None else hi_len}")
    for key in ("pattern", "format"):
        if key in schema:
            parts.append(f"{key} {schema[key]}")
    return ", ".join(parts) or "-"


def parameter_rows(tool: Any) -> list[list[str]]:
    """One row per input parameter: name, type, required, default, constraints, description."""
    schema = wire.dump(tool).get("inputSchema", {})
    required = set(schema.get("required", []))
    rows = []
    for name, prop in schema.get("properties", {}).items():
        default = _json(prop["default"]) if "default" in prop else "-"
        rows.append([name, _type_of(prop), "yes" if name in required else "no", default,
                     _constraints(prop), prop.get("description", "-")])
    return rows


def _output_summary(definition: dict) -> str:
    schema = definition.get("outputSchema")
    if not schema:
        return "none (text content only)"
    fields = ", ".join(schema.get("properties", {})) or "any keys"
    return f"{schema.get('title', 'object')} {{{fields}}}"


def _annotation_summary(definition: dict) -> str:
    notes = definition.get("annotations") or {}
    return ", ".join(f"{key}={_json(value)}" for key, value in notes.items()) or "none"


def _card_parts(tool: Any) -> tuple[str, str]:
    definition = wire.dump(tool)
    title = f" ({definition['title']})" if definition.get("title") else ""
    description = definition.get("description", "") or "(no description)"
    params_text, params_html = _table(
        ["parameter", "type", "required", "default", "constraints", "description"], parameter_rows(tool)
    )
    output, annotations = _output_summary(definition), _annotation_summary(definition)
    text = "\n".join([
        f"tool {definition['name']}{title}",
        *(("  " + line).rstrip() for line in description.splitlines()),
        "  " + params_text.replace("\n", "\n  "),
        f"  output: {output}",
        f"  annotations: {annotations}",
    ])
    html_body = (
        f"<b>{html.escape(definition['name'])}</b>{html.escape(title)}{_pre(description)}{params_html}"
        f"<div>output: {html.escape(output)}</div><div>annotations: {html.escape(annotations)}</div>"
    )
    return text, html_body


def tool_card(tool: Any) -> Rendered:
    """A card for one tool definition: name, description, parameters, output, annotations."""
    text, body = _card_parts(tool)
    return Rendered(text, f'<div class="course-card">{body}</div>')


def tool_cards(tools: Iterable[Any]) -> Rendered:
    """Cards for several tools, in the order given (the server's `tools/list` order)."""
    parts = [_card_parts(tool) for tool in tools]
    return Rendered("\n\n".join(t for t, _ in parts), "".join(f'<div class="course-card">{h}</div>' for _, h in parts))


def compare(before: Any, after: Any, labels: tuple[str, str] = ("before", "after")) -> Rendered:
    """Two definitions side by side, with what changed field by field."""
    a, b = wire.dump(before), wire.dump(after)
    rows = []
    for label, get in (
        ("name", lambda d: d["name"]),
        ("description", lambda d: f"{len(d.get('description', ''))} chars, "
                                  f"{len([s for s in d.get('description', '').split('.') if s.strip()])} sentences"),
        ("parameters", lambda d: ", ".join(d.get("inputSchema", {}).get("properties", {})) or "none"),
        ("constrained", lambda d: str(sum(_constraints(p) != "-" for p in d.get("inputSchema", {}).get("properties", {}).values()))),
        ("described", lambda d: str(sum("description" in p for p in d.get("inputSchema", {}).get("properties", {}).values()))),
        ("output", _output_summary),
        ("annotations", _annotation_summary),
    ):
        rows.append([label, get(a), get(b)])
    summary_text, summary_html = _table(["field", *labels], rows)
    (ta, ha), (tb, hb) = _card_parts(before), _card_parts(after)
    text = f"{summary_text}\n\n--- {labels[0]} ---\n{ta}\n\n--- {labels[1]} ---\n{tb}"
    body = (f'<div class="course-card">{summary_html}</div><div class="course-side">'
            f'<div class="course-card"><i>{html.escape(labels[0])}</i><br>{ha}</div>'
            f'<div class="course-card"><i>{html.escape(labels[1])}</i><br>{hb}</div></div>')
    return Rendered(text, body)


# --- results, errors, JSON, frames --------------------------------------------------------------


def as_json(obj: Any, title: str | None = None) -> Rendered:
    """Any SDK object (or plain data) as indented wire JSON."""
    text = _json(wire.dump(obj), indent=2)
    if title:
        text = f"{title}\n{text}"
    return Rendered(text, f'<div class="course-card">{_pre(text)}</div>')


def result(res: Any, title: str | None = None) -> Rendered:
    """A `tools/call` result: what the model reads (content) and what programs get (structuredContent)."""
    data = wire.dump(res)
    failed = bool(data.get("isError"))
    heading = f"{title + ': ' if title else ''}{'isError: true (tool execution error)' if failed else 'isError: false'}"
    lines = [heading]
    for block in data.get("content", []):
        body = block.get("text", _json(block))
        lines.append(f"content[{block.get('type', '?')}]: " + body.replace("\n", "\n  "))
    if "structuredContent" in data:
        lines.append("structuredContent: " + _json(data["structuredContent"]))
    text = "\n".join(lines)
    css = "course-err" if failed else "course-ok"
    return Rendered(text, f'<div class="course-card {css}">{_pre(text)}</div>')


def shorten(value: Any, max_string: int = 120) -> Any:
    """A copy of JSON data whose long strings are cut, with a note of how much was cut."""
    if isinstance(value, str) and len(value) > max_string:
        return value[:max_string] + f"…(+{len(value) - max_string} chars)"
    if isinstance(value, list):
        return [shorten(item, max_string) for item in value]
    if isinstance(value, dict):
        return {key: shorten(item, max_string) for key, item in value.items()}
    return value


def frames(log: Iterable[tuple[str, dict]], max_string: int = 120) -> Rendered:
    """Recorded JSON-RPC frames, one per line, in the order they crossed the wire."""
    lines = [f"{direction} {_json(shorten(frame, max_string))}" for direction, frame in log]
    text = "\n".join(lines)
    return Rendered(text, f'<div class="course-card">{_pre(text)}</div>')


def table(header: list[str], rows: list[list[Any]]) -> Rendered:
    """A small table of any values (rendered with `str`)."""
    text, body = _table(header, [[str(cell) for cell in row] for row in rows])
    return Rendered(text, f'<div class="course-card">{body}</div>')
