"""Notebook rendering of tools, results, errors and wire frames.

Every object here renders twice: as HTML for people in JupyterLab and as a deterministic
plain-text form that nbval compares (no ids, addresses, times or unordered sets).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable
from typing import Any

from course_lib import wire

# Inline styles only: JupyterLab strips <style> blocks from untrusted output (a fresh clone's notebooks),
# but keeps `style` attributes whose properties and values its sanitizer allows. Class names stay for tests.
CARD = ("font-family:monospace;font-size:12px;border:1px solid #8c8c8c;border-radius:6px;padding:6px 10px;"
        "margin:4px 0;max-width:100%;box-sizing:border-box;overflow-x:auto")
OK = CARD + ";border-left:6px solid #0072b2"
ERR = CARD + ";border-left:6px solid #d55e00"
TABLE = "border-collapse:collapse;margin:4px 0"
CELL = "border:1px solid #c8c8c8;padding:2px 6px;text-align:left;vertical-align:top"
NOWRAP = CELL + ";white-space:nowrap"
# Lines wrap only at spaces: no style here lets the browser split a word ("token/s"). JupyterLab's own
# printed output (`print`) uses word-break:break-all, so lessons print long lines with `text(...)` instead.
# A token longer than the line makes its card scroll sideways rather than break.
PRE = ("white-space:pre-wrap;word-break:normal;overflow-wrap:normal;margin:2px 0;padding:0;"
       "font-family:monospace;font-size:12px;text-align:left")
SIDE = "display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start"
HALF = CARD + ";flex:1 1 520px;min-width:0"
TALL = ";max-height:28em;overflow-y:auto"


def _card(body: str, style: str = CARD, css: str = "course-card") -> str:
    return f'<div class="{css}" style="{style}">{body}</div>'


class Rendered:
    """A piece of output with a text/plain and a text/html form."""

    def __init__(self, text: str, html_body: str):
        self.text, self.html = text, html_body

    def __repr__(self) -> str:
        return self.text

    def _repr_html_(self) -> str:
        return self.html


def _json(value: Any, indent: int | None = None) -> str:
    separators = None if indent else (", ", ": ")
    return json.dumps(value, indent=indent, ensure_ascii=False, separators=separators)


KEEP = "white-space:nowrap"
_BREAKABLE_WORD = re.compile(r"[^\s]*[-/\u2010-\u2014][^\s]*")
"""A run without spaces that holds a hyphen, dash or slash: browsers may break a line inside it
("2026-/10-05", "'^ORD-/[0-9]{4}$'"), so such words are kept whole in a nowrap span."""


def _words(text: str) -> str:
    """Escaped text whose lines can wrap only at spaces (see `_BREAKABLE_WORD`)."""
    return _BREAKABLE_WORD.sub(lambda word: f'<span style="{KEEP}">{word.group()}</span>', html.escape(text))


def _pre(text: str, extra: str = "", wrap: bool = True) -> str:
    """Preformatted text; with `wrap`, long lines wrap at spaces only, else they scroll (code)."""
    body = _words(text) if wrap else html.escape(text)
    return f'<pre style="{PRE}{extra}{"" if wrap else ";white-space:pre"}">{body}</pre>'


def _td(cell: str | Rendered, tag: str = "td") -> str:
    """A table cell; one word (an id, a code, a number) never wraps, so "ORD-9999" stays whole.

    A `Rendered` cell (such as a `verdict`) brings its own HTML; its text decides the wrapping.
    """
    text = cell.text if isinstance(cell, Rendered) else cell
    style = NOWRAP if len(text) <= 40 and not any(ch.isspace() for ch in text) else CELL
    body = cell.html if isinstance(cell, Rendered) else _words(cell) if style is CELL else html.escape(cell)
    return f'<{tag} style="{style}">{body}</{tag}>'


def _plain(cell: str | Rendered) -> str:
    return cell.text if isinstance(cell, Rendered) else cell


FIT = 104
"""The widest table, in characters of its narrowest layout (`_width`), that fits a lesson's output card in JupyterLab
at 1280 px with the file browser open: 826 px of card, 12 px monospace at about 7.5 px a character, and each cell's
padding and border counted as two characters (tests/test_lab_browser.py measures it). A wider table gets letters for
its long column headers and a legend; if it is still too wide, it says it scrolls."""
SCROLL_CUE = "⟷ wide table: scroll sideways to see every column"
CUE = "font-family:var(--jp-ui-font-family,sans-serif);font-size:12px;color:#555;margin:0 0 2px"


def _narrowest(cell: str) -> int:
    """The fewest characters a cell's line can have: a one-word cell never wraps (see `_td`), others at spaces."""
    if len(cell) <= 40 and not any(ch.isspace() for ch in cell):
        return len(cell)
    return max((len(word) for word in cell.split()), default=0)


def _width(plain: list[list[str]]) -> int:
    """The narrowest the table can be drawn, in characters (two per cell for its padding and border)."""
    return sum(max(_narrowest(row[i]) for row in plain) + 2 for i in range(len(plain[0])))


def _letters(index: int) -> str:
    """A, B, …, Z, AA, AB, …: the code of the index-th abbreviated column."""
    code = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        code = chr(ord("A") + rest) + code
    return code


def _abbreviated(header: list[str], rows: list[list[str | Rendered]]) -> tuple[list[str], list[list[str | Rendered]],
                                                                                list[str]]:
    """A too-wide table's header with each column title longer than its cells as a letter, the rows (a row label
    that is one of those titles, as in a confusion table, gets its letter too) and the legend entries."""
    codes: dict[str, str] = {}
    short = [header[0]]
    for index, title in enumerate(header[1:], 1):
        cells = max((_narrowest(_plain(row[index])) for row in rows), default=0)
        if _narrowest(title) > max(cells, 6):  # a short title such as (none) stays as it is
            codes[title] = _letters(len(codes))
            short.append(codes[title])
        else:
            short.append(title)
    labelled = [[f"{row[0]} ({codes[row[0]]})" if isinstance(row[0], str) and row[0] in codes else row[0], *row[1:]]
                for row in rows]
    return short, labelled, [f"{code} = {title}" for title, code in codes.items()]


def _table(header: list[str], rows: list[list[str | Rendered]]) -> tuple[str, str]:
    """A table as aligned text and as HTML, made to fit (see `FIT`): long headers abbreviated with a legend, and a
    table that still does not fit says it scrolls sideways."""
    legend: list[str] = []
    if _width([header, *[[_plain(cell) for cell in row] for row in rows]]) > FIT:
        header, rows, legend = _abbreviated(header, rows)
    plain = [[_plain(cell) for cell in row] for row in [header, *rows]]
    widths = [max(len(row[i]) for row in plain) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip() for row in plain]
    head = "".join(_td(cell, "th") for cell in header)
    body = "".join("<tr>" + "".join(_td(c) for c in row) + "</tr>" for row in rows)
    table_html = f'<table style="{TABLE}"><tr>{head}</tr>{body}</table>'
    if _width(plain) > FIT:
        lines.insert(0, SCROLL_CUE)
        table_html = f'<div class="course-scroll-cue" style="{CUE}">{html.escape(SCROLL_CUE)}</div>' + table_html
    if legend:
        lines.append("columns: " + "; ".join(legend))
        table_html += f'<div style="{PRE}">{_words("columns: " + "; ".join(legend))}</div>'
    return "\n".join(lines), table_html


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
    rows = parameter_rows(tool)
    params_text, params_html = _table(
        ["parameter", "type", "required", "default", "constraints", "description"], rows
    ) if rows else ("parameters: none", "<div>parameters: none</div>")
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
        f"<div>output: {_words(output)}</div><div>annotations: {_words(annotations)}</div>"
    )
    return text, html_body


def tool_card(tool: Any) -> Rendered:
    """A card for one tool definition: name, description, parameters, output, annotations."""
    text, body = _card_parts(tool)
    return Rendered(text, _card(body))


def tool_cards(tools: Iterable[Any]) -> Rendered:
    """Cards for several tools, in the order given (the server's `tools/list` order)."""
    parts = [_card_parts(tool) for tool in tools]
    return Rendered("\n\n".join(t for t, _ in parts), "".join(_card(h) for _, h in parts))


def compare(before: Any, after: Any, labels: tuple[str, str] = ("before", "after"), cards: bool = True) -> Rendered:
    """Two definitions side by side, with what changed field by field; `cards=False` shows only that table."""
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
    if not cards:
        return Rendered(summary_text, _card(summary_html))
    (ta, ha), (tb, hb) = _card_parts(before), _card_parts(after)
    text = f"{summary_text}\n\n--- {labels[0]} ---\n{ta}\n\n--- {labels[1]} ---\n{tb}"
    # Two cards that sit side by side where both fit (each at least 520 px) and stack below that width.
    body = (_card(summary_html) + f'<div class="course-side" style="{SIDE}">'
            + _card(f"<i>{html.escape(labels[0])}</i><br>{ha}", HALF)
            + _card(f"<i>{html.escape(labels[1])}</i><br>{hb}", HALF) + "</div>")
    return Rendered(text, body)


# --- results, errors, JSON, frames --------------------------------------------------------------


def as_json(obj: Any, title: str | None = None) -> Rendered:
    """Any SDK object (or plain data) as indented wire JSON; in HTML, long JSON scrolls inside a capped box."""
    text = _json(wire.dump(obj), indent=2)
    if title:
        text = f"{title}\n{text}"
    lines = text.count("\n") + 1
    note = (f"<div><i>{lines} lines; scroll inside the box for the rest</i></div>" if lines > 28 else "")
    return Rendered(text, _card(note + _pre(text, TALL)))


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
    return Rendered(text, _card(_pre(text), ERR if failed else OK, f"course-card {css}"))


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
    return Rendered(text, _card(_pre(text)))


def _outline(direction: str, frame: dict) -> str:
    """One frame in one line: direction, id, method (or error code, or result) and the keys it carries."""
    ident = f"id={_json(frame['id'])}" if "id" in frame else "notification"
    size = f"({len(_json(frame)):,} chars)"
    if "method" in frame:
        params = frame.get("params")
        keys = ", ".join(params) if isinstance(params, dict) and params else "-"
        return f"{direction} {ident} {frame['method']}  params: {keys}  {size}"
    if "error" in frame:
        error = frame["error"]
        return f"{direction} {ident} error {error.get('code')} {error.get('message', '')}  {size}"
    result = frame.get("result")
    keys = ", ".join(result) if isinstance(result, dict) and result else "-"
    flag = "  isError: true" if isinstance(result, dict) and result.get("isError") else ""
    return f"{direction} {ident} result: {keys}{flag}  {size}"


def outline(log: Iterable[tuple[str, dict]], opening: bool = True) -> Rendered:
    """Recorded frames as one short line each (id, method or outcome, keys); each opens to the full frame in HTML.

    With `opening=False` the connection's opening (discover / initialize) is left out. `frames(log)` prints
    every frame in full.
    """
    log = list(log) if opening else _without_opening(log)
    text = "\n".join(_outline(direction, frame) for direction, frame in log)
    items = "".join(
        f'<details style="margin:1px 0"><summary style="cursor:pointer;{PRE}">{_words(_outline(d, f))}</summary>'
        f"{_pre(_json(f, indent=2), TALL)}</details>" for d, f in log)
    return Rendered(text, _card(items))


def table(header: list[str], rows: list[list[Any]]) -> Rendered:
    """A small table of any values (rendered with `str`; a `verdict` or other `Rendered` keeps its colour)."""
    cells = [[cell if isinstance(cell, Rendered) else str(cell) for cell in row] for row in rows]
    text, body = _table(header, cells)
    return Rendered(text, _card(body))


# --- verdict words in colour (run / ASK / refused, safe / UNSAFE, breaking / safe) -----------------

TONES = {
    "good": "color:#005c40;background:#dff3ea",  # Okabe-Ito bluish green, darkened for contrast
    "caution": "color:#7a4f00;background:#fcefd2",  # Okabe-Ito orange
    "bad": "color:#a33600;background:#fbe2d5",  # Okabe-Ito vermillion
    "neutral": "color:#333333;background:#ececec",
}
"""Colours of a verdict's tone: text and background both set, so a badge reads in light and dark themes."""
VERDICT_TONES = {
    "good": ("safe", "run", "accepted", "allowed", "passed", "kept", "ok", "yes"),
    "caution": ("ask", "warned", "not done"),
    "bad": ("unsafe", "refused", "breaking", "failed", "fails", "blocked", "rejected", "dropped", "no"),
}
"""The tone each verdict word reads as (green: goes ahead; orange: asks; vermillion: stopped or broken),
matched case-insensitively on the whole word; any other word is neutral unless the caller names a tone."""
_VERDICT_LINE = re.compile(r"(?m)^(\s*(?:host|person): )(\w+)")


def _tone_of(word: str) -> str:
    key = word.strip().casefold()
    return next((tone for tone, words in VERDICT_TONES.items() if key in words), "neutral")


def _badge(word: str, tone: str | None = None) -> str:
    tone = tone or _tone_of(word)
    if tone not in TONES:
        raise ValueError(f"unknown tone {tone!r}; use one of {', '.join(TONES)}")
    return (f'<span class="course-verdict course-{tone}" style="{TONES[tone]};font-weight:bold;'
            f'padding:0 4px;border-radius:3px;white-space:nowrap">{html.escape(word)}</span>')


def verdict(word: Any, detail: str = "", tone: str | None = None) -> Rendered:
    """A verdict word in colour, to read at a glance: on its own, or as a cell of `table`.

    The tone comes from the word (safe / run / accepted read good; ASK caution; UNSAFE / refused /
    breaking bad; see `VERDICT_TONES`) unless `tone` is "good", "caution", "bad" or "neutral".
    `detail` follows the word in plain type ("refused: days must be 1-7"). The text form, which nbval
    compares, is the word (and detail) unchanged: colour is in the HTML only.
    """
    word = str(word)
    text = f"{word}: {detail}" if detail else word
    return Rendered(text, _badge(word, tone) + (_words(f": {detail}") if detail else ""))


def _leading_verdict(value: str) -> str | Rendered:
    """A cell that starts with a verdict word ("FAILS: Unknown tool: x"), with that word in colour."""
    word = re.match(r"\w+", value)
    if not word or _tone_of(word.group()) == "neutral":
        return value
    return Rendered(value, _badge(word.group()) + _words(value[word.end():]))


def verdict_text(value: str) -> Rendered:
    """Printed host lines ("  host: ASK · …", "  person: no, …") with each verdict word in colour."""
    parts, last = [], 0
    for match in _VERDICT_LINE.finditer(value):
        word = match.group(2)
        parts += [_words(value[last:match.start(2)]),
                  _badge(word) if _tone_of(word) != "neutral" else html.escape(word)]
        last = match.end(2)
    body = "".join(parts) + _words(value[last:])
    return Rendered(value, _card(f'<pre style="{PRE}">{body}</pre>'))


def verdict_table(header: list[str], rows: list[list[Any]], column: str) -> Rendered:
    """`table`, with each cell of `column` that starts with a verdict word in colour."""
    at = header.index(column)
    return table(header, [[_leading_verdict(str(value)) if index == at else value
                           for index, value in enumerate(row)] for row in rows])


# --- lessons 02-03: the two halves of a result, host tables, trimmed frame logs -------------------


def result_parts(res: Any, title: str | None = None) -> Rendered:
    """One result split in two, side by side: content (what the model reads) and structuredContent (programs)."""
    data = wire.dump(res)
    blocks = data.get("content", [])
    content = "\n".join(f"[{i}] {block.get('type', '?')}: " + block.get("text", _json(block)).replace("\n", "\n    ")
                        for i, block in enumerate(blocks)) or "(no content blocks)"
    structured = _json(data["structuredContent"], indent=2) if "structuredContent" in data else "(none)"
    heading = f"{title + ': ' if title else ''}isError: {_json(bool(data.get('isError')))}"
    left, right = "content: what the model reads", "structuredContent: what programs get"
    text = f"{heading}\n--- {left} ---\n{content}\n--- {right} ---\n{structured}"
    body = (f'<div>{html.escape(heading)}</div><div class="course-side" style="{SIDE}">'
            + _card(f"<i>{html.escape(left)}</i>{_pre(content)}", HALF.replace("520px", "360px"))
            + _card(f"<i>{html.escape(right)}</i>{_pre(structured)}", HALF.replace("520px", "360px")) + "</div>")
    return Rendered(text, body)


def _resolve(schema: dict, root: dict) -> dict:
    ref = schema.get("$ref", "")
    if ref.startswith("#/$defs/"):
        return root.get("$defs", {}).get(ref.rsplit("/", 1)[-1], {})
    return schema


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(item, dict) for item in value):
        return f"{len(value)} item{'' if len(value) == 1 else 's'}"
    return _json(value)


def host_table(res: Any, tool: Any = None, rows: str | None = None) -> Rendered:
    """What a host can draw from `structuredContent` alone: a table, with column titles from the outputSchema.

    `rows` names the field that holds the list of rows; by default the only list-of-objects field, or the
    object itself as one row. The text content is never read.
    """
    data = wire.dump(res)
    if data.get("isError") or not isinstance(data.get("structuredContent"), dict):
        reason = "isError: true" if data.get("isError") else "no structuredContent"
        text = f"(no table: {reason}; a host can only show the text)"
        return Rendered(text, _card(html.escape(text)))
    structured = data["structuredContent"]
    lists = [key for key, value in structured.items() if isinstance(value, list) and value and isinstance(value[0], dict)]
    key = rows if rows is not None else (lists[0] if len(lists) == 1 else None)
    items = structured[key] if key is not None else [structured]
    schema = (wire.dump(tool).get("outputSchema") or {}) if tool is not None else {}
    item_schema = _resolve(schema, schema)
    if key is not None:
        item_schema = _resolve(item_schema.get("properties", {}).get(key, {}).get("items", {}), schema)
    properties = item_schema.get("properties", {})
    columns = list(properties) or list(dict.fromkeys(name for item in items for name in item))
    header = [properties.get(name, {}).get("title", name) for name in columns]
    text, body = _table(header, [[_cell(item.get(name)) for name in columns] for item in items])
    return Rendered(text, _card(body))


_OPENING = frozenset({"server/discover", "initialize", "notifications/initialized"})


def _without_envelope(frame: dict) -> dict:
    frame = json.loads(json.dumps(frame))
    for part in ("params", "result"):
        if isinstance(frame.get(part), dict) and "_meta" in frame[part]:
            frame[part]["_meta"] = "…"
    return frame


def _without_opening(log: Iterable[tuple[str, dict]]) -> list[tuple[str, dict]]:
    log = list(log)
    opening_ids = {frame.get("id") for _, frame in log if frame.get("method") in _OPENING and "id" in frame}
    return [(direction, frame) for direction, frame in log
            if frame.get("method") not in _OPENING and not ("method" not in frame and frame.get("id") in opening_ids)]


def exchange(log: Iterable[tuple[str, dict]], envelope: bool = False, max_string: int = 120) -> Rendered:
    """Recorded frames without the connection's opening (discover / initialize), one per line.

    With `envelope=False` each 2026-07-28 `_meta` envelope is shown as "…" (it is the same on every
    request of a connection); `frames` shows everything.
    """
    kept = _without_opening(log)
    lines = [f"{direction} {_json(shorten(frame if envelope else _without_envelope(frame), max_string))}"
             for direction, frame in kept]
    text = "\n".join(lines)
    return Rendered(text, _card(_pre(text)))


# --- lesson 07: two model inputs side by side -------------------------------------------------------


def columns(left: str, right: str, labels: tuple[str, str] = ("left", "right"), width: int = 58) -> Rendered:
    """Two texts side by side, each wrapped at `width` characters (long lines continue on the next line)."""
    import textwrap

    def lines(text: str) -> list[str]:
        out = []
        for line in text.splitlines() or [""]:
            out.extend(textwrap.wrap(line, width, replace_whitespace=False, drop_whitespace=False,
                                     break_long_words=True) or [""])
        return out

    a, b = lines(left), lines(right)
    rows = [f"{labels[0]:<{width}} | {labels[1]}", f"{'-' * width}-+-{'-' * width}"]
    rows += [f"{x:<{width}} | {y}".rstrip() for x, y in zip(a + [""] * (len(b) - len(a)), b + [""] * (len(a) - len(b)))]
    half = HALF.replace("520px", "360px")
    body = (f'<div class="course-side" style="{SIDE}">' + _card(f"<i>{html.escape(labels[0])}</i>{_pre(left)}", half)
            + _card(f"<i>{html.escape(labels[1])}</i>{_pre(right)}", half) + "</div>")
    return Rendered("\n".join(rows), body)


# --- printed prose -------------------------------------------------------------------------------


def text(value: str) -> Rendered:
    """Text as printed, but wrapped by the browser at word boundaries (JupyterLab breaks printed lines anywhere)."""
    return Rendered(value, _pre(value))


# --- the code a helper hides ---------------------------------------------------------------------


def source(obj: Any) -> Rendered:
    """The real source of a course function, class or method, headed by where it lives.

    Lessons use it to show the lines that are the lesson's point where a helper would hide them:
    the text is read from the module itself, so what a learner reads is what runs.
    """
    import inspect
    import textwrap
    from pathlib import Path

    target = inspect.unwrap(obj)
    module = inspect.getmodule(target)
    where = module.__name__ if module else "?"
    name = getattr(target, "__qualname__", getattr(target, "__name__", repr(target)))
    parts = Path(inspect.getsourcefile(target) or "").parts
    path = "/".join(parts[parts.index("course_lib"):]) if "course_lib" in parts else where
    code = textwrap.dedent(inspect.getsource(target)).rstrip("\n")
    title = f"{path} · {name}"
    return Rendered(f"{title}\n{code}", _card(f"<i>{html.escape(title)}</i>{_pre(code, wrap=False)}"))


# --- what changed between two texts ----------------------------------------------------------------

INSERTED = "background:#d9f2e6;color:#00543e;text-decoration:none;font-weight:bold"
DELETED = "background:#fbe3d9;color:#8a3700"


def changes(before: str, after: str) -> Rendered:
    """`after`, word by word against `before`: inserted words as [+…+], deleted ones as [-…-].

    In HTML the insertions are highlighted green and the deletions struck through in red, so a
    reader sees at once what a new version of a text added or removed.
    """
    import difflib

    old, new = re.findall(r"\S+|\s+", before), re.findall(r"\S+|\s+", after)
    text, body = [], []
    for op, a, b, c, d in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if op == "equal":
            text.append("".join(new[c:d]))
            body.append(html.escape("".join(new[c:d])))
            continue
        if a < b:
            gone = "".join(old[a:b])
            text.append(f"[-{gone}-]")
            body.append(f'<del style="{DELETED}">{html.escape(gone)}</del>')
        if c < d:
            added = "".join(new[c:d])
            text.append(f"[+{added}+]")
            body.append(f'<ins style="{INSERTED}">{html.escape(added)}</ins>')
    return Rendered("".join(text), _card(f'<pre style="{PRE}">{"".join(body)}</pre>'))
