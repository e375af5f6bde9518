"""The design review: the lessons' rules applied to any tool definition.

Each rule reads only the wire definition, just as a model does. Findings are advice for a
person, not proof: a tool can pass every rule and still be chosen wrongly (lesson 08).
The rules' ids, severities, reasons and fixes are in `review_rules`; a finding names its rule.
"""

from __future__ import annotations

import json
import re
import socket
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable

from course_lib import review_rules, wire

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
    "say write commit checkout branch push pull clone rebase stash revert blame init exec kill spawn invoke "
    "upsert migrate truncate alter vacuum grep triage transition link unlink reassign prioritize "
    "gzip gunzip zip unzip compress decompress extract simulate classify transcribe".split()
)
"""Verbs that start an intent-level tool name; a name's first word must be one (names are split on _ - . and case).

Common tool verbs of git, files, shells, databases, ticketing and search are among them."""
STATE_WORDS = frozenset("status info version health".split())
"""After a namespace, one of these alone names a read of that thing's state (`git_status`)."""
CLOSED_CHOICE_HINTS = frozenset("units unit mode format type kind sort order direction level scale status".split())
_WORD_SPLIT = re.compile(r"[_\-.]+|(?<=[a-z0-9])(?=[A-Z])")
_CLAUSE_SPLIT = re.compile(r"\s*(?:;|:|\s[-–—]\s|,?\s+but\s+|,?\s+however,?\s+|\.\s+)\s*", re.I)
_NEGATING = re.compile(r"\b(?:not|never|avoid|instead|rather than|except|cannot|no need|isn't|aren't|don't|"
                       r"doesn't|won't|mustn't|shouldn't)\b|n't\b", re.I)
_LIMIT_OPENING = re.compile(r"\W*(?:do not|don't|does not|doesn't|never|avoid|not (?:for|to|when|if|on|with|meant|"
                            r"intended|designed|suited|suitable|a|an|the)|no need|cannot|can't|won't|will not|"
                            r"must not|mustn't|should not|shouldn't|only|except)\b", re.I)
_SUBJECT_NEGATION = re.compile(r"\b(?:it|this|this tool|the tool|this server|the server|it also)\s+(?:also\s+)?"
                               r"(?:does not|doesn't|cannot|can't|will not|won't|is not|isn't|never|only|has no|"
                               r"does no)\b|\b(?:you|the model|callers?)\s+(?:should not|shouldn't|must not|mustn't|"
                               r"may not|need not|cannot|can't|do not need)\b", re.I)
_ELSEWHERE = re.compile(r"\b(?:instead|rather than|except|not (?:for|meant|intended|designed|suited|suitable|to be "
                        r"used))\b", re.I)
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
_USE = re.compile(r"\b(?:use|using|call|calling|whenever|when asked|(?:when|if)\s+(?:the |a |an |your )?(?:users?|"
                  r"persons?|people|someone|somebody|you|they|customers?|callers?|questions?|requests?)|helpful|useful|"
                  r"suited|ideal|designed|meant|intended|good for|best for|great for|perfect for|essential for|answers?|"
                  r"asks?|needs?|wants?|for questions|for requests|before|after|to find|to look up|to get|to read|"
                  r"to check|to record|to see)\b", re.I)
_CAUTION = re.compile(r"\buse (?:it |this |this tool )?(?:with caution|with care|carefully)\b", re.I)
"""A warning, not a when ("Use with caution as it overwrites files")."""


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
    "a change to what the model was told before": re.compile(
        r"\byou (?:were|have been) (?:\w+ )?(?:advised|told|instructed|asked|trained|not allowed|forbidden)\b|"
        r"\b(?:originally|previously|until now),? you\b|\b(?:grants?|gives?) you (?:\w+ )?(?:access|permission)\b|"
        r"\byou (?:now )?(?:have|are granted|are given) (?:\w+ ){0,2}access\b", re.I),
}
_PERSUASION = re.compile(
    r"\b(?:always|only ever)\s+(?:use|prefer|choose|pick|call|select)\b|\bprefer (?:this|me)\b|"
    r"\b(?:the )?(?:best|only|most (?:accurate|reliable|trusted|powerful|complete))(?: \w+)?\s+tool\b|"
    r"\b(?:over|instead of|rather than|before)\s+(?:any|all|every)\s+other\s+tools?\b|"
    r"\bonly (?:tool|one) you (?:will )?need\b|\bnever use (?:any )?other tools?\b", re.I)
_TOOLISH = re.compile(r"(?<![\w.-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w-])")


@dataclass(frozen=True)
class Finding:
    """One piece of review advice about one tool (or, with `tool` "", about the whole tool list)."""

    tool: str
    rule: str
    advice: str
    parameter: str = ""
    """The parameter the advice is about, for the parameter rules."""

    @property
    def id(self) -> str:
        """The rule's stable id, e.g. MCP103."""
        return review_rules.BY_NAME[self.rule].id

    @property
    def severity(self) -> str:
        """The rule's default severity: error, warning or info."""
        return review_rules.BY_NAME[self.rule].severity


def is_valid_name(name: str) -> bool:
    """Whether `name` follows the 2026-07-28 spec's tool-name rule (the SDK only warns)."""
    return isinstance(name, str) and SPEC_NAME.fullmatch(name) is not None


def name_words(name: str) -> list[str]:
    """A tool name's words, lower case: snake_case, kebab-case, dotted and camelCase all split."""
    return [word.lower() for word in _WORD_SPLIT.split(name) if word]


def namespace(names: list[str]) -> str:
    """The `prefix_` (or `prefix-`) that every one of two or more tool names shares, such as `git_`, or "".

    A shared verb (`get_`) is not a namespace: it is the start of each intent.
    """
    heads = {re.match(r"([A-Za-z0-9]+[_-])(?=[A-Za-z0-9])", name.rsplit(".", 1)[-1]) for name in names}
    prefixes = {head.group(1) for head in heads if head}
    if len(names) < 2 or len(prefixes) != 1 or None in heads:
        return ""
    prefix = prefixes.pop()
    return "" if prefix[:-1].lower() in VERBS else prefix


def _intent(name: str, prefix: str = "") -> tuple[list[str], bool]:
    """The words of a name's intent (after a dotted namespace and a shared `prefix`), and whether it had one."""
    rest = name.rsplit(".", 1)[-1]
    spaced = "." in name
    if prefix and rest.startswith(prefix) and len(rest) > len(prefix):
        rest, spaced = rest[len(prefix):], True
    return name_words(rest), spaced


def is_verb_object(name: str, prefix: str = "") -> bool:
    """Whether a name starts with a verb and names an object after it (any spec-legal casing).

    A dotted prefix is a namespace, not part of the intent: `weather.get_forecast` is judged as `get_forecast`;
    so is a `prefix` the server's tools share (`namespace`). After a namespace the verb alone will do, since
    the namespace is its object (`git_commit`), as will a state word (`git_status`).
    """
    words, spaced = _intent(name, prefix)
    if not words or not all(word.isalnum() and word.isascii() for word in words):
        return False
    if prefix and spaced and len(words) == 1:
        return words[0] in VERBS or words[0] in STATE_WORDS
    return len(words) >= 2 and words[0] in VERBS


MUTATING_VERBS = frozenset(
    "create add make insert append post put set update edit change modify patch rename move copy merge split delete "
    "remove drop clear cancel close open reopen archive restore undo revoke disable enable toggle send notify page "
    "alert email message reply forward publish share invite assign unassign escalate start stop run execute launch "
    "trigger deploy build install restart pause resume retry schedule book reserve order buy pay refund charge "
    "approve reject sign register upload import sync save store record mark flag tag label comment note submit "
    "grant deny release claim lock unlock reset fix apply write commit checkout push pull rebase stash revert init "
    "exec kill spawn upsert migrate truncate alter transition link unlink reassign".split())
"""Verbs whose tools change something; such a tool without annotations leaves every host guessing."""


def mutates(name: str, prefix: str = "") -> bool:
    """Whether a tool's name says it changes things: its verb (first word, or last in noun_verb order) does."""
    words, _ = _intent(name, prefix)
    if not words:
        return False
    verb = words[0] if words[0] in VERBS or len(words) == 1 else words[-1]
    return verb in MUTATING_VERBS


def probe_findings(probed: dict[str, tuple[bool, str]], sdk: str | None = None) -> list[Finding]:
    """Findings from calling each tool once with schema-invalid arguments: accepted, hidden crashes, leaks."""
    findings = []
    for tool, (is_error, text) in probed.items():
        if not is_error:
            findings.append(Finding(tool, "probe-accepted", "it accepted arguments its own schema refuses; "
                                                            "validate before acting"))
        elif text.strip() == f"Error executing tool {tool}":
            findings.append(Finding(tool, "probe-hidden", "a bad call crashed with a hidden error; return isError "
                                                          "with a message that says what to change"
                                    + _idiom("probe-hidden", sdk)))
        elif leaks(text):
            findings.append(Finding(tool, "probe-leak", f"its error for a bad call gives away {', '.join(leaks(text))}"))
    return findings


def _idiom(rule: str, sdk: str | None, otherwise: str = "", values: list[str] = ()) -> str:
    """"; Python SDK: ..." (the fix in a known SDK's words), else `otherwise` (a schema-only hint, or nothing)."""
    filled = ", ".join(json.dumps(value) for value in values) or review_rules.EXAMPLE_VALUES
    idiom = review_rules.BY_NAME[rule].idiom(sdk, filled)
    return f"; {idiom}" if idiom else otherwise


def sentences(text: str) -> list[str]:
    """The sentences of a description (split on ., ! or ? followed by space or end)."""
    return [part.strip() for part in re.split(r"(?<=[.!?])\s+", text.strip()) if part.strip()]


def clauses(text: str) -> list[str]:
    """The description split into clauses: sentences, then at ';', ':', dashes and ', but'."""
    return [part.strip(" .") for sentence in sentences(text) for part in _CLAUSE_SPLIT.split(sentence)
            if part.strip(" .")]


def _limits(part: str) -> bool:
    limits = (_LIMIT_OPENING.match(part) or _SUBJECT_NEGATION.search(part) or _ELSEWHERE.search(part)) is not None
    negated = limits and len(_NEGATIONS.findall(part)) != 2
    limiting = negated or _RESTRICTING.search(part) is not None
    content = [word for word in re.findall(r"[\w']+", part.lower()) if word not in _EMPTY_WORDS]
    return limiting and bool(content)


def limits_use(clause: str) -> bool:
    """Whether a clause limits when the tool is used (a when-not), in any phrasing.

    A limit speaks of using the tool: an order ("Do not use it for", "Never", "Avoid", "Not for", "Only"),
    the tool's own limits ("it does not", "this tool cannot"), another tool instead, or a condition ("only
    after", "unless"). A "not" that describes the data ("changes that are not yet staged") limits nothing,
    nor does a double negative, "do not hesitate", "not only", or a limit with no content ("do not use it
    incorrectly"); "does not X, and is never Y" limits twice (judged part by part).
    """
    clause = _NOT_LIMITING.sub(" ", clause)
    return _limits(clause) or any(_limits(part) for part in _PART_SPLIT.split(clause))


def opens_with_what(description: str) -> bool:
    """Whether the description's first sentence says what the tool does, not when (not) to use it."""
    first = (sentences(description) or [""])[0]
    return len(first.split()) >= 3 and _OPENS_WITH_INSTRUCTION.match(first) is None


def invites_use(clause: str) -> bool:
    """Whether a clause says when to use the tool (a when); "use it only after X" is a when and a limit.

    A condition on the tool's behaviour ("if the destination exists, it fails") is not a when; one on the
    person's need ("when you need to ...", "if the user asks ...") is.
    """
    clause = _CAUTION.sub(" ", _NOT_LIMITING.sub(" ", clause))
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
    """Invisible characters in a text (format characters, variation selectors, other ignorables), as U+XXXX."""
    from course_lib import invisible

    return invisible.hidden(text)


def with_hidden(text: str) -> str:
    """A text followed by what its invisible characters spell (tag characters, variation-selector bytes)."""
    from course_lib import invisible

    return text + " " + invisible.spelled(text)


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


_FILLER = frozenset("a an the this that tool tools function server mcp api helper utility".split())
_QUOTED = re.compile(r"""'([^'\n]{1,40})'|"([^"\n]{1,40})"|`([^`\n]{1,40})`""")
_EXAMPLES = re.compile(r"\b(?:e\.\s?g\b|for example|for instance|such as|like|i\.e\b)", re.I)
_CHOICE_WORDS = re.compile(r"\b(?:or|one of|either|whether)\b", re.I)
_ONE_OF = re.compile(r"\b(?:one of|either)\b:?\s+([\w.-]+(?:\s*,\s*[\w.-]+)*\s*,?\s+or\s+[\w.-]+)", re.I)
_COUNTS = frozenset("limit count max size days hours minutes seconds timeout top n num number length lines depth "
                    "results items k pages retries attempts".split())
_DOCUMENT = re.compile(r"\b(?:diffs?|differences|patch(?:es)?|markdown|html|contents? of|images?|audio|base64|"
                       r"resource links?|resource reference|as a resource|embedded resource|echo(?:es)?)\b", re.I)


def says_what(description: str, name: str = "") -> bool:
    """Whether the description's first sentence says what the tool does, in words beyond its name.

    "Weather tool." for `weather` says nothing; "Switches branches" for `git_checkout` does.
    """
    first = (sentences(description) or [""])[0]
    words = {word.removesuffix("s") for word in re.findall(r"[a-z0-9]+", first.lower())}
    own = {word.removesuffix("s") for word in name_words(name)} | _FILLER
    return len(re.findall(r"\w+", first)) >= 2 and not words <= own


def listed_choices(text: str) -> list[str]:
    """The values a text lists as a closed choice ("'local', 'remote' or 'all'", "one of a, b or c"), or []."""
    for sentence in sentences(text):
        if _EXAMPLES.search(sentence):
            continue
        quoted = [next(group for group in match.groups() if group is not None) for match in _QUOTED.finditer(sentence)]
        if len(set(quoted)) >= 2 and _CHOICE_WORDS.search(sentence):
            return list(dict.fromkeys(quoted))
        spelled = _ONE_OF.search(sentence)
        if spelled:
            return [value.rstrip(".") for value in re.split(r"\s*,\s*|\s+or\s+", spelled.group(1).strip()) if value]
    return []


def _described(schema: dict) -> bool:
    """Whether a parameter tells the model what goes in: a description, a fixed list, or described fields."""
    if "description" in schema or "enum" in schema or "const" in schema:
        return True
    fields = (schema.get("items") if schema.get("type") == "array" else schema) or {}
    properties = fields.get("properties") if isinstance(fields, dict) else None
    return bool(properties) and all(isinstance(p, dict) and "description" in p for p in properties.values())


def _choice(param: str, schema: dict, description: str) -> tuple[str, list[str]] | None:
    """Why a parameter looks like a closed choice without an enum, with the values listed for it, or None."""
    if "enum" in schema or "const" in schema or schema.get("type") not in (None, "string"):
        return None
    text = schema.get("description") if isinstance(schema.get("description"), str) else ""
    mentions = " ".join(s for s in sentences(description) if re.search(rf"\b{re.escape(param)}\b", s))
    values = listed_choices(text) or listed_choices(mentions)
    if values:
        return f"{param!r} takes one of {', '.join(repr(value) for value in values)}: list them in an enum", values
    named = param.lower() in CLOSED_CHOICE_HINTS or (name_words(param) or [""])[-1] in CLOSED_CHOICE_HINTS
    if named and not _EXAMPLES.search(text):
        return f"{param!r} looks like a closed choice: give its schema an enum", []
    return None


def _unbounded(param: str, schema: dict) -> bool:
    """Whether an integer has no bound at all, or is a count or limit with no maximum."""
    if schema.get("type") != "integer":
        return False
    upper = "maximum" in schema or "exclusiveMaximum" in schema
    lower = "minimum" in schema or "exclusiveMinimum" in schema
    return not (upper or lower) or (not upper and bool(set(name_words(param)) & _COUNTS))


def returns_document(definition: dict) -> bool:
    """Whether name or description says the result is a document by nature: a diff, a page, contents, media."""
    text = " ".join(name_words(definition.get("name") or "")) + " " + (definition.get("description") or "")
    return _DOCUMENT.search(text) is not None


def _prose_output(output: dict) -> bool:
    """Whether an output schema is only the SDK's wrapper around one string (`{"result": string}`)."""
    properties = output.get("properties") or {}
    return set(properties) == {"result"} and (properties["result"] or {}).get("type") in (None, "string")


def review_tool(tool: Any, sdk: str | None = None, prefix: str = "") -> list[Finding]:
    """The findings for one tool definition (an SDK `Tool` or its wire dict).

    `sdk` ("python" or "typescript") adds that SDK's idiom to the advice; `prefix` is the server's shared
    namespace (`namespace`), which `review` finds from the whole list.
    """
    definition = wire.dump(tool)
    name = definition.get("name", "")
    description = definition.get("description") or ""
    findings: list[Finding] = []

    def add(rule: str, advice: str, parameter: str = "") -> None:
        findings.append(Finding(name, rule, advice, parameter))

    if not is_valid_name(name):
        add("name-spec", "use 1-128 characters of A-Z a-z 0-9 _ - . (the SDK only warns)")
    elif not is_verb_object(name, prefix):
        add("name-intent", "name the intent as verb_object, e.g. get_daily_forecast")
    if not says_what(description, name if isinstance(name, str) else ""):
        add("description-what", "say what it does and returns in a full sentence, then when to use it")
    if not says_when(description):
        add("description-when", "add a sentence that says when to use it ('Use it for ...')")
    if not says_when_not(description):
        add("description-when-not", "add a sentence that says when not to use it ('Do not use it for ...')")
    for param, schema in (definition.get("inputSchema") or {}).get("properties", {}).items():
        schema = schema if isinstance(schema, dict) else {}
        if not _described(schema):
            add("param-described", f"describe parameter {param!r}"
                + _idiom("param-described", sdk, ' (a "description" in its schema)'), param)
        choice = _choice(param, schema, description)
        if choice:
            add("param-enum", choice[0] + _idiom("param-enum", sdk, values=choice[1]), param)
        if _unbounded(param, schema):
            add("param-bounds", f"bound integer {param!r} with a minimum and a maximum"
                + _idiom("param-bounds", sdk), param)
    if not definition.get("annotations") and mutates(name, prefix):
        add("annotations-missing", "this tool changes things: say how with annotations (readOnlyHint false, "
                                   "destructiveHint, idempotentHint), or every host must assume the worst"
            + _idiom("annotations-missing", sdk))
    for rule, advice in _poisoning(definition):
        add(rule, advice)
    output = definition.get("outputSchema") or {}
    if (not output or _prose_output(output)) and not returns_document(definition):
        add("output-structured", "declare an outputSchema with named fields, so hosts get structuredContent"
            + _idiom("output-structured", sdk))
    return findings


def review(tools: list[Any], sdk: str | None = None) -> list[Finding]:
    """The findings for a whole tool list, including names used twice and other servers' tools spoken of."""
    definitions = [wire.dump(tool) for tool in tools]
    prefix = namespace([d.get("name") for d in definitions if isinstance(d.get("name"), str)])
    findings = [finding for definition in definitions for finding in review_tool(definition, sdk, prefix)]
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


def over_budget(tools: list[Any], budget: int) -> list[Finding]:
    """A finding when the whole tool list, as compact JSON, is more than `budget` o200k_base tokens."""
    from course_lib import tokens

    definitions = wire.dump(list(tools))
    total = tokens.count(definitions)
    if total <= budget:
        return []
    costs = sorted(((tokens.count(d), d.get("name", "")) for d in definitions), key=lambda c: (-c[0], c[1]))
    largest = ", ".join(f"{name} {cost}" for cost, name in costs[:3])
    return [Finding("", "tokens-budget", f"the {len(definitions)} tool definition(s) cost {total} tokens "
                    f"(o200k_base, compact JSON), over the budget of {budget}; largest: {largest}")]


_LEAKS: dict[str, re.Pattern] = {
    "stack trace": re.compile(r"Traceback \(most recent call last\)|File \"[^\"]+\", line \d+"),
    "file path": re.compile(r"(?:^|[\s'\"(=])(?:/[\w.@-]+){2,}|[A-Za-z]:\\\\[\w\\.-]+|\b[\w/-]+\.py\b(?!\w)"),
    "SQL": re.compile(r"\b(SELECT\s.+\sFROM|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM)\b", re.I | re.S),
    "secret": re.compile(r"\b(sk|pk|ghp|xox[bp])[-_][A-Za-z0-9_-]{8,}|Bearer\s+[A-Za-z0-9._-]{8,}|password\s*[=:]", re.I),
    "internal host": re.compile(r"\b[\w-]+\.(internal|corp|local|lan)\b|\b(10|127)\.\d+\.\d+\.\d+\b|\b192\.168\.\d+\.\d+\b"),
}


def hostname(_: Any = None) -> str:
    """The name of the machine this runs on (the argument is ignored, so a checker can ask it beside a
    learner's function, where that function's server runs)."""
    return socket.gethostname()


def _names_a_machine(text: str, hosts: Iterable[str]) -> bool:
    """Whether `text` names one of `hosts` or this machine, whole or by its first label."""
    names = {hostname(), *hosts}
    forms = {form for name in names if name for form in (name, name.split(".")[0]) if form}
    return any(re.search(rf"(?<![\w-]){re.escape(form)}(?![\w-])", text) for form in forms)


def leaks(text: str, hosts: Iterable[str] = ()) -> list[str]:
    """The kinds of internals an error text gives away: stack traces, paths, SQL, secrets, hosts (an
    internal domain or address, or the bare name of this machine or of one of `hosts`, such as the machine
    a server under review runs on)."""
    found = [kind for kind, pattern in _LEAKS.items() if pattern.search(text)]
    if "internal host" not in found and _names_a_machine(text, hosts):
        found.append("internal host")
    return [kind for kind in _LEAKS if kind in found]
