"""The design review: the lessons' rules applied to any tool definition.

Each rule reads only the wire definition, just as a model does. Findings are advice for a
person, not proof: a tool can pass every rule and still be chosen wrongly (lesson 08).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from course_lib import wire

SPEC_NAME = re.compile(r"[A-Za-z0-9_.-]{1,128}")
"""Tool names in the 2026-07-28 spec: 1 to 128 of ASCII letters, digits, `_`, `-` and `.`."""

VERBS = frozenset(
    "get list search find lookup fetch read create add update set delete remove cancel close open "
    "send post convert calculate compare check validate start stop run schedule book move copy "
    "rename archive restore approve reject assign summarize export import preview".split()
)
CLOSED_CHOICE_HINTS = frozenset("units unit mode format type kind sort order direction level scale status".split())
_WHEN = re.compile(r"\b(use (it|this)|use when|call (it|this)|for questions)\b", re.I)
_WHEN_NOT = re.compile(r"\b(do not|don't|not for|never use|not use)\b", re.I)


@dataclass(frozen=True)
class Finding:
    """One piece of review advice about one tool."""

    tool: str
    rule: str
    advice: str


def is_valid_name(name: str) -> bool:
    """Whether `name` follows the 2026-07-28 spec's tool-name rule (the SDK only warns)."""
    return isinstance(name, str) and SPEC_NAME.fullmatch(name) is not None


def is_verb_object(name: str) -> bool:
    """Whether a snake_case name starts with a known verb and names an object after it."""
    words = name.split("_")
    return len(words) >= 2 and words[0] in VERBS and all(re.fullmatch(r"[a-z0-9]+", w) for w in words)


def sentences(text: str) -> list[str]:
    """The sentences of a description (split on ., ! or ? followed by space or end)."""
    return [part.strip() for part in re.split(r"(?<=[.!?])\s+", text.strip()) if part.strip()]


def says_when(description: str) -> bool:
    """Whether a description has a sentence telling the model when to use the tool."""
    return any(_WHEN.search(s) and not _WHEN_NOT.search(s) for s in sentences(description))


def says_when_not(description: str) -> bool:
    """Whether a description tells the model when not to use the tool."""
    return bool(_WHEN_NOT.search(description))


def review_tool(tool: Any) -> list[Finding]:
    """The findings for one tool definition (an SDK `Tool` or its wire dict)."""
    definition = wire.dump(tool)
    name = definition.get("name", "")
    description = definition.get("description") or ""
    findings: list[Finding] = []

    def add(rule: str, advice: str) -> None:
        findings.append(Finding(name, rule, advice))

    if not is_valid_name(name):
        add("name-spec", "use 1-128 characters of A-Z a-z 0-9 _ - . (the SDK only warns)")
    elif not is_verb_object(name):
        add("name-intent", "name the intent as verb_object, e.g. get_daily_forecast")
    if len(sentences(description)) < 2:
        add("description-what", "say what it does and returns in a full sentence, then when to use it")
    if not says_when(description):
        add("description-when", "add a sentence that says when to use it ('Use it for ...')")
    if not says_when_not(description):
        add("description-when-not", "add a sentence that says when not to use it ('Do not use it for ...')")
    for param, schema in definition.get("inputSchema", {}).get("properties", {}).items():
        if "description" not in schema and "enum" not in schema:
            add("param-described", f"describe parameter {param!r} (Field(description=...))")
        if param.lower() in CLOSED_CHOICE_HINTS and "enum" not in schema:
            add("param-enum", f"{param!r} looks like a closed choice: use Literal[...] so the schema has an enum")
        if schema.get("type") == "integer" and "maximum" not in schema and "exclusiveMaximum" not in schema:
            add("param-bounds", f"bound integer {param!r} with Field(ge=..., le=...)")
    output = definition.get("outputSchema") or {}
    if not output or set(output.get("properties", {})) == {"result"}:
        add("output-structured", "return a typed model so hosts get structuredContent with named fields")
    return findings


def review(tools: list[Any]) -> list[Finding]:
    """The findings for a whole tool list, including names used twice."""
    definitions = [wire.dump(tool) for tool in tools]
    findings = [finding for definition in definitions for finding in review_tool(definition)]
    for name, times in Counter(d.get("name") for d in definitions).items():
        if times > 1:
            findings.append(Finding(name, "name-unique", f"{times} tools share this name; names must be unique"))
    return findings


_LEAKS: dict[str, re.Pattern] = {
    "stack trace": re.compile(r"Traceback \(most recent call last\)|File \"[^\"]+\", line \d+"),
    "file path": re.compile(r"(?:^|[\s'\"(=])(?:/[\w.@-]+){2,}|[A-Za-z]:\\\\[\w\\.-]+|\b[\w/-]+\.py\b(?!\w)"),
    "SQL": re.compile(r"\b(SELECT\s.+\sFROM|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM)\b", re.I | re.S),
    "secret": re.compile(r"\b(sk|pk|ghp|xox[bp])[-_][A-Za-z0-9_-]{8,}|Bearer\s+[A-Za-z0-9._-]{8,}|password\s*[=:]", re.I),
    "internal host": re.compile(r"\b[\w-]+\.(internal|corp|local|lan)\b|\b(10|127)\.\d+\.\d+\.\d+\b|\b192\.168\.\d+\.\d+\b"),
}


def leaks(text: str) -> list[str]:
    """The kinds of internals an error text gives away: stack traces, paths, SQL, secrets, hosts."""
    return [kind for kind, pattern in _LEAKS.items() if pattern.search(text)]
