"""The design review: the lessons' rules applied to any tool definition.

Each rule reads only the wire definition, just as a model does. Findings are advice for a
person, not proof: a tool can pass every rule and still be chosen wrongly (lesson 08).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import Any

from course_lib import wire

SPEC_NAME = re.compile(r"[A-Za-z0-9_.-]{1,128}")
"""Tool names in the 2026-07-28 spec: 1 to 128 of ASCII letters, digits, `_`, `-` and `.`."""

VERBS = frozenset(
    "get list search find lookup look fetch read retrieve show view display describe query count check "
    "create add make insert append post put set update edit change modify patch rename move copy merge split "
    "delete remove drop clear cancel close open reopen archive restore undo revoke disable enable toggle "
    "send notify page alert email message reply forward publish share invite assign unassign escalate "
    "convert translate transform format parse render calculate compute estimate predict measure "
    "compare diff validate verify test evaluate score rank sort filter group summarize summarise explain "
    "start stop run execute launch trigger deploy build install restart pause resume retry schedule plan "
    "book reserve order buy pay refund charge approve reject review sign login logout authorize register "
    "upload download import export sync backup save load store record log track monitor watch subscribe "
    "unsubscribe resolve acknowledge ack mark flag tag label annotate comment note preview draft generate "
    "analyze analyse inspect scan detect lint fix apply ask answer choose pick select match map resolve "
    "reset lock unlock grant deny release claim submit complete finish ping echo greet fetch crawl scrape "
    "list browse navigate locate geocode route ship deliver return rate tell provide report obtain determine give "
    "say".split()
)
"""Verbs that start an intent-level tool name; a name's first word must be one (names are split on _ - . and case)."""
CLOSED_CHOICE_HINTS = frozenset("units unit mode format type kind sort order direction level scale status".split())
_WORD_SPLIT = re.compile(r"[_\-.]+|(?<=[a-z0-9])(?=[A-Z])")
_CLAUSE_SPLIT = re.compile(r"\s*(?:;|:|\s[-–—]\s|,?\s+but\s+|,?\s+however,?\s+|\.\s+)\s*", re.I)
_NEGATING = re.compile(r"\b(?:not|never|avoid|instead|rather than|except|cannot|no need|isn't|aren't|don't|"
                       r"doesn't|won't|mustn't|shouldn't)\b|n't\b", re.I)
_RESTRICTING = re.compile(r"\b(?:only (?:after|when|if|for|to|with|once)|unless)\b", re.I)
_NOT_LIMITING = re.compile(r"\b(?:do not|don't|never|not) hesitate\b|\bnot only\b|\bnot just\b|\bno matter\b|"
                           r"\bnot limited\b|\bnever fails?\b|\bnot a problem\b", re.I)
_PART_SPLIT = re.compile(r",|\band\b|\bor\b|\bnor\b", re.I)
_EMPTY_WORDS = frozenset(
    "do does did not don't doesn't never avoid use using used call calling it its this that tool the a an to for "
    "of in on with be is are was any anything everything something way ways incorrectly wrongly improperly "
    "inappropriately badly carelessly unnecessarily needlessly excessively please just only unless except "
    "instead rather than cannot can't won't should shouldn't must mustn't".split())
_OPENS_WITH_INSTRUCTION = re.compile(r"\W*(?:use|call|invoke|do not|don't|never|avoid|only|except|unless)\b", re.I)
_NEGATIONS = re.compile(r"\b(?:no|not|never|none|nothing)\b|n't\b", re.I)
_USE = re.compile(r"\b(?:use|using|call|calling|when|whenever|if|helpful|useful|suited|ideal|designed|meant|"
                  r"intended|good for|best for|answers?|asks?|needs?|wants?|for questions|for requests|before|after|"
                  r"to find|to look up|to get|to read|to check|to record|to see)\b", re.I)


_ORDERS: dict[str, re.Pattern] = {
    "a hidden block": re.compile(r"<\s*/?\s*(?:important|system|instructions?|secret|hidden|admin)\s*>", re.I),
    "an order to ignore other instructions": re.compile(
        r"\b(?:ignore|disregard|forget|override)\b[^.]{0,30}\b(?:previous|prior|above|earlier|other|all|system)\b"
        r"[^.]{0,20}\b(?:instructions?|rules|prompts?|messages?)\b", re.I),
    "an order to keep something from the person": re.compile(
        r"\b(?:do not|don't|never|without)\s+(?:tell|telling|mention|mentioning|reveal|revealing|show|showing|"
        r"inform|informing|alert|alerting|notify|notifying|asking)\b[^.]{0,40}\b(?:user|person|human|anyone)\b", re.I),
    "a secret or a file the tool does not need": re.compile(
        r"~/|\$HOME\b|\bid_rsa\b|\.ssh\b|\.aws\b|/etc/passwd|(?<![\w-])\.env\b|\bprivate keys?\b|"
        r"\bapi[ _-]?keys?\b|\bpasswords?\b|\bcredentials? files?\b", re.I),
    "a new role for the model": re.compile(r"\bsystem prompt\b|\byou are now\b|\bnew instructions\b", re.I),
}
_PERSUASION = re.compile(
    r"\b(?:always|only ever)\s+(?:use|prefer|choose|pick|call|select)\b|\bprefer (?:this|me)\b|"
    r"\b(?:the )?(?:best|only|most (?:accurate|reliable|trusted|powerful|complete))(?: \w+)?\s+tool\b|"
    r"\b(?:over|instead of|rather than|before)\s+(?:any|all|every)\s+other\s+tools?\b|"
    r"\bonly (?:tool|one) you (?:will )?need\b|\bnever use (?:any )?other tools?\b", re.I)
_TOOLISH = re.compile(r"(?<![\w.-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w-])")


@dataclass(frozen=True)
class Finding:
    """One piece of review advice about one tool."""

    tool: str
    rule: str
    advice: str


def is_valid_name(name: str) -> bool:
    """Whether `name` follows the 2026-07-28 spec's tool-name rule (the SDK only warns)."""
    return isinstance(name, str) and SPEC_NAME.fullmatch(name) is not None


def name_words(name: str) -> list[str]:
    """A tool name's words, lower case: snake_case, kebab-case, dotted and camelCase all split."""
    return [word.lower() for word in _WORD_SPLIT.split(name) if word]


def is_verb_object(name: str) -> bool:
    """Whether a name starts with a verb and names an object after it (any spec-legal casing).

    A dotted prefix is a namespace, not part of the intent: `weather.get_forecast` is judged as `get_forecast`.
    """
    words = name_words(name.rsplit(".", 1)[-1])
    return len(words) >= 2 and words[0] in VERBS and all(word.isalnum() and word.isascii() for word in words)


MUTATING_VERBS = frozenset(
    "create add make insert append post put set update edit change modify patch rename move copy merge split delete "
    "remove drop clear cancel close open reopen archive restore undo revoke disable enable toggle send notify page "
    "alert email message reply forward publish share invite assign unassign escalate start stop run execute launch "
    "trigger deploy build install restart pause resume retry schedule book reserve order buy pay refund charge "
    "approve reject sign register upload import sync save store record mark flag tag label comment note submit "
    "grant deny release claim lock unlock reset fix apply".split())
"""Verbs whose tools change something; such a tool without annotations leaves every host guessing."""


def mutates(name: str) -> bool:
    """Whether a tool's name starts with a verb that changes things (create_, delete_, send_ ...)."""
    words = name_words(name.rsplit(".", 1)[-1])
    return bool(words) and words[0] in MUTATING_VERBS


def probe_findings(probed: dict[str, tuple[bool, str]]) -> list[Finding]:
    """Findings from calling each tool once with schema-invalid arguments: accepted, hidden crashes, leaks."""
    findings = []
    for tool, (is_error, text) in probed.items():
        if not is_error:
            findings.append(Finding(tool, "probe-accepted", "it accepted arguments its own schema refuses; "
                                                            "validate before acting"))
        elif text.strip() == f"Error executing tool {tool}":
            findings.append(Finding(tool, "probe-hidden", "a bad call crashed with a hidden error; raise ToolError "
                                                          "with a message that says what to change"))
        elif leaks(text):
            findings.append(Finding(tool, "probe-leak", f"its error for a bad call gives away {', '.join(leaks(text))}"))
    return findings


def sentences(text: str) -> list[str]:
    """The sentences of a description (split on ., ! or ? followed by space or end)."""
    return [part.strip() for part in re.split(r"(?<=[.!?])\s+", text.strip()) if part.strip()]


def clauses(text: str) -> list[str]:
    """The description split into clauses: sentences, then at ';', ':', dashes and ', but'."""
    return [part.strip(" .") for sentence in sentences(text) for part in _CLAUSE_SPLIT.split(sentence)
            if part.strip(" .")]


def _limits(part: str) -> bool:
    negated = _NEGATING.search(part) is not None and len(_NEGATIONS.findall(part)) != 2
    limiting = negated or _RESTRICTING.search(part) is not None
    content = [word for word in re.findall(r"[\w']+", part.lower()) if word not in _EMPTY_WORDS]
    return limiting and bool(content)


def limits_use(clause: str) -> bool:
    """Whether a clause limits when the tool is used (a when-not), in any phrasing.

    A double negative limits nothing, nor do "do not hesitate", "not only" or a limit with no content
    ("do not use it incorrectly"); "does not X, and is never Y" limits twice (judged part by part).
    """
    clause = _NOT_LIMITING.sub(" ", clause)
    return _limits(clause) or any(_limits(part) for part in _PART_SPLIT.split(clause))


def opens_with_what(description: str) -> bool:
    """Whether the description's first sentence says what the tool does, not when (not) to use it."""
    first = (sentences(description) or [""])[0]
    return len(first.split()) >= 3 and _OPENS_WITH_INSTRUCTION.match(first) is None


def invites_use(clause: str) -> bool:
    """Whether a clause says when to use the tool (a when); "use it only after X" is a when and a limit."""
    clause = _NOT_LIMITING.sub(" ", clause)
    return _USE.search(clause) is not None and (_NEGATING.search(clause) is None or len(_NEGATIONS.findall(clause)) == 2)


def says_when(description: str) -> bool:
    """Whether a description has a clause telling the model when to use the tool."""
    return any(invites_use(clause) for clause in clauses(description)[1:] or clauses(description))


def says_when_not(description: str) -> bool:
    """Whether a description has a clause that limits when to use the tool."""
    return any(limits_use(clause) for clause in clauses(description))


def when_not_names(description: str, alternative: str) -> bool:
    """Whether a limiting clause of the description names `alternative` (the tool to use instead)."""
    return any(limits_use(clause) and alternative in clause for clause in clauses(description)) or any(
        limits_use(sentence) and alternative in sentence for sentence in sentences(description))


def texts_read(definition: dict) -> list[tuple[str, str]]:
    """Every text a model reads in a definition: (where, text) for title, description and each parameter's description."""
    found = [("title", definition.get("title") or ""), ("description", definition.get("description") or "")]
    for param, schema in (definition.get("inputSchema") or {}).get("properties", {}).items():
        if isinstance(schema, dict) and isinstance(schema.get("description"), str):
            found.append((f"parameter {param!r}", schema["description"]))
    return [(where, text) for where, text in found if text]


def hidden_characters(text: str) -> list[str]:
    """Invisible format characters (zero-width, bidi controls, tag characters) in a text, as U+XXXX."""
    return [f"U+{ord(char):04X}" for char in text if unicodedata.category(char) == "Cf"]


def with_hidden(text: str) -> str:
    """A text followed by what its invisible tag characters spell (the hidden ASCII a model still reads)."""
    return text + " " + "".join(chr(ord(char) - 0xE0000) for char in text if 0xE0020 <= ord(char) < 0xE007F)


def orders(text: str) -> list[str]:
    """The kinds of orders to the model a text gives beyond how to use its own tool."""
    return [kind for kind, pattern in _ORDERS.items() if pattern.search(text)]


def persuades(text: str) -> bool:
    """Whether a text urges the model to prefer this tool over others ("always prefer this tool")."""
    return _PERSUASION.search(text) is not None


def tool_names_in(text: str) -> list[str]:
    """Words of a text that look like snake_case tool names (verb_object)."""
    return [word for word in dict.fromkeys(_TOOLISH.findall(text)) if is_verb_object(word)]


def _poisoning(definition: dict) -> list[tuple[str, str]]:
    """(rule, advice) for instructions, persuasion and hidden characters in the texts a model reads."""
    found = []
    for where, text in texts_read(definition):
        hidden = hidden_characters(text)
        if hidden:
            found.append(("description-hidden-text", f"the {where} holds {len(hidden)} invisible character(s) "
                          f"({', '.join(dict.fromkeys(hidden[:3]))}...): a model reads them, a person does not"))
        kinds = orders(with_hidden(text))
        if kinds:
            found.append(("description-instructions", f"the {where} gives the model orders ({', '.join(kinds)}): "
                          "describe the tool; never tell the model what else to do"))
        if persuades(text):
            found.append(("description-persuasion", f"the {where} urges the model to prefer this tool: say when "
                          "to use it and when not, and let the model choose"))
    return found


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
    for param, schema in (definition.get("inputSchema") or {}).get("properties", {}).items():
        if "description" not in schema and "enum" not in schema:
            add("param-described", f"describe parameter {param!r} (Field(description=...))")
        if param.lower() in CLOSED_CHOICE_HINTS and "enum" not in schema:
            add("param-enum", f"{param!r} looks like a closed choice: use Literal[...] so the schema has an enum")
        if schema.get("type") == "integer" and "maximum" not in schema and "exclusiveMaximum" not in schema:
            add("param-bounds", f"bound integer {param!r} with Field(ge=..., le=...)")
    if not definition.get("annotations") and mutates(name):
        add("annotations-missing", "this tool changes things: say how with annotations (readOnlyHint false, "
                                   "destructiveHint, idempotentHint), or every host must assume the worst")
    for rule, advice in _poisoning(definition):
        add(rule, advice)
    output = definition.get("outputSchema") or {}
    if not output or set(output.get("properties", {})) == {"result"}:
        add("output-structured", "return a typed model so hosts get structuredContent with named fields")
    return findings


def review(tools: list[Any]) -> list[Finding]:
    """The findings for a whole tool list, including names used twice."""
    definitions = [wire.dump(tool) for tool in tools]
    findings = [finding for definition in definitions for finding in review_tool(definition)]
    names = {d.get("name") for d in definitions}
    params = {p for d in definitions for p in (d.get("inputSchema") or {}).get("properties", {})}
    for definition in definitions:
        read = " ".join(with_hidden(text) for _, text in texts_read(definition))
        foreign = [word for word in tool_names_in(read) if word not in names and word not in params]
        if foreign:
            findings.append(Finding(definition.get("name", ""), "description-other-tools",
                                    f"it speaks of {', '.join(foreign)}, not a tool of this server: a description "
                                    "must not instruct the model about other servers' tools"))
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
