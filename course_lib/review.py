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
from functools import lru_cache
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
_RESTRICTING = re.compile(r"\b(?:only (?:after|when|if|for|to|with|once|available|supported|works?)|unless|"
                          r"not (?:available|supported)|unavailable|(?:is|are) (?:limited|restricted) to|"
                          r"(?:is|are) (?:skipped|excluded|ignored|not copied)|cannot be \w+ed)\b|\bonly\s*\)?\s*$",
                          re.I)
_NOT_LIMITING = re.compile(r"\b(?:do not|don't|never) (?:follow|obey|execute|trust|act on) (?:any )?(?:\w+ )?"
                           r"instructions\b|\b(?:cannot|can't|can not) be undone\b|\brather than (?:\w+ing\b|['\"`])|"
                           r"\b(?:do not|don't|never|not) hesitate\b|\bnot only\b|\bnot just\b|\bno matter\b|"
                           r"\bnot limited\b|\bnever fails?\b|\bnot a problem\b", re.I)
_PART_SPLIT = re.compile(r",|\band\b|\bor\b|\bnor\b", re.I)
_EMPTY_WORDS = frozenset(
    "do does did not don't doesn't never avoid use using used call calling it its this that tool the a an to for "
    "of in on with be is are was any anything everything something way ways incorrectly wrongly improperly "
    "inappropriately badly carelessly unnecessarily needlessly excessively please just only unless except "
    "instead rather than cannot can't won't should shouldn't must mustn't".split())
_OPENS_WITH_INSTRUCTION = re.compile(r"\W*(?:use|call|invoke|do not|don't|never|avoid|only|except|unless)\b", re.I)
_NEGATIONS = re.compile(r"\b(?:no|not|never|none|nothing)\b|n't\b", re.I)
_USE = re.compile(r"\b(?:use|call|whenever|when asked|(?:when|if)\s+(?:the |a |an |your )?(?:users?|"
                  r"persons?|people|someone|somebody|you|they|customers?|callers?|questions?|requests?)|helpful|useful|"
                  r"suited|ideal|designed|meant|intended|good for|best for|great for|perfect for|essential for|answers?|"
                  r"asks?|needs?|wants?|for questions|for requests|(?:before|after) (?:calling|using|you|the user|creating|"
                  r"running|making|working|any|each|every|this|that|a |an )|(?:\bit|\btool|^|[.!?]\s+)\s*(?:can|could|may|might) be "
                  r"used (?:to|for|when)|start here|to find|to look up|to get|to read|"
                  r"to check|to record|to see)\b", re.I)
_CONDITION = re.compile(r"\b(?:when|whenever|if|once|after|before|while|until|unless|for|to|that|which|who|where|"
                        r"because|since)\b", re.I)
"""Where a when's condition or object begins, after its use word: a negation past it does not turn the use away."""
_CAUTION = re.compile(r"\buse (?:it |this |this tool )?(?:with caution|with care|carefully)\b", re.I)
"""A warning, not a when ("Use with caution as it overwrites files")."""


SECRETS = "a secret or a file the tool does not need"
GRANT = "a grant of access to the model"
UNCERTAIN = frozenset({SECRETS, GRANT})
"""The kinds of order that are only a warning alone: naming a secret can be how a tool asks for its own key, and
"this key gives you access to ..." can describe the account; an error must be certain."""
_ORDERS: dict[str, re.Pattern] = {
    "a hidden block": re.compile(r"<\s*/?\s*(?:important|system|instructions?|secret|hidden|admin)\s*>", re.I),
    "an order to ignore other instructions": re.compile(
        r"\b(?:ignore|disregard|forget|override)\b[^.]{0,30}\b(?:previous|prior|above|earlier|other|all|system)\b"
        r"[^.]{0,20}\b(?:instructions?|rules|prompts?|messages?)\b", re.I),
    "an order to keep something from the person": re.compile(
        r"\b(?:do not|don't|never|without)\s+(?:tell|telling|mention|mentioning|reveal|revealing|show|showing|"
        r"inform|informing|alert|alerting|notify|notifying|asking)\b[^.]{0,40}\b(?:user|person|human|anyone)\b", re.I),
    SECRETS: re.compile(
        r"~/\.\w|\$HOME/\.\w|\bid_rsa\b|(?<![\w.\"'`-])\.(?:ssh|aws|env)\b(?![.\"'`-])|/etc/passwd|"
        r"(?<!not )(?<!n't )(?<!never )(?<!without )(?<!neither )(?<!nor )"
        r"\b(?:read|pass|include|send|attach|copy|upload|append|provide|put|add|cat|open)\b[^.]{0,60}"
        r"\b(?:private keys?|api[ _-]?keys?|passwords?|credentials?(?: files?)?|(?:access|auth|bearer) tokens?|"
        r"secrets?)\b", re.I),
    "a new role for the model": re.compile(  # "system_prompt: System prompt for the agent" documents a parameter
        r"\b(?:your|new|real|true|updated) system prompt\b|\byou are now\b|\bnew instructions\b", re.I),
    "a change to what the model was told before": re.compile(
        r"\byou (?:were|have been) (?:\w+ )?(?:advised|told|instructed|asked|trained|not allowed|forbidden)\b|"
        r"\b(?:originally|previously|until now),? you\b|"
        r"\byou now have (?:\w+ ){0,2}access\b|\byou are (?:now )?(?:granted|given) (?:\w+ ){0,2}access\b", re.I),
    GRANT: re.compile(r"\b(?:grants?|gives?) you (?:\w+ )?(?:access|permission)\b", re.I),
}
_PERSUASION = re.compile(
    r"\b(?:always|only ever)\s+(?:use|prefer|choose|pick|call|select)\s+(?:this|me|it|our)\b|\bprefer (?:this|me)\b|"
    r"\b(?:the )?(?:best|most (?:accurate|reliable|trusted|powerful|complete))(?: \w+)?\s+tool\b|"
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
    level: str = ""
    """This finding's severity when it differs from its rule's default (a destructive tool without annotations
    is an error where another changing tool is a warning), else ""."""

    @property
    def id(self) -> str:
        """The rule's stable id, e.g. MCP103."""
        return review_rules.BY_NAME[self.rule].id

    @property
    def severity(self) -> str:
        """The finding's severity: its own `level`, else its rule's default (error, warning or info)."""
        return self.level or review_rules.BY_NAME[self.rule].severity


def is_valid_name(name: str) -> bool:
    """Whether `name` follows the 2026-07-28 spec's tool-name rule (the SDK only warns)."""
    return isinstance(name, str) and SPEC_NAME.fullmatch(name) is not None


def name_words(name: str) -> list[str]:
    """A tool name's words, lower case: snake_case, kebab-case, dotted and camelCase all split."""
    return [word.lower() for word in _WORD_SPLIT.split(name) if word]


Prefixes = str | Iterable[str]
"""A server's namespaces: one `prefix_` or several (`jira_`, `confluence_`)."""


@lru_cache(maxsize=None)
def _lemmas(word: str) -> dict[str, tuple[str, ...]]:
    """The parts of speech an English lexicon gives a word, with its lemmas for each ({} for an unknown word).

    The lexicon is lemminflect's (built from the SPECIALIST lexicon and AGID), which ships in its wheel."""
    import lemminflect

    return lemminflect.getAllLemmas(word)


def is_verb(word: str) -> bool:
    """Whether an English lexicon has `word` as the base form of a verb, or it is a tool verb of `VERBS`
    (gzip, upsert, ...); a verb with un- or re- in front counts (unwatch, reindex)."""
    word = word.lower()
    if word in VERBS or word in _lemmas(word).get("VERB", ()):
        return True
    return word[:2] in ("un", "re") and len(word) > 4 and is_verb(word[2:])


def _verb_forms(word: str) -> set[str]:
    import lemminflect

    return {word} | {form for forms in lemminflect.getAllInflections(word, "VERB").values() for form in forms}


def is_verb_here(word: str, description: str) -> bool:
    """Whether `word` opens a name as a verb, read with the tool's description: a tool verb of `VERBS`, a word an
    English lexicon has only as a verb, or a noun-and-verb (`fill`, `place`) that the description uses as a verb
    (a sentence or clause opens with it, or it follows "to": "Fill form fields"; not "Get details of a place")."""
    word = word.lower()
    if word in VERBS:
        return True
    if word[:2] in ("un", "re") and len(word) > 4 and not _lemmas(word) and is_verb_here(word[2:], description):
        return True
    if not is_verb(word):
        return False
    if (not is_noun(word) and "ADJ" not in _lemmas(word)) or _irregular(word):
        return True
    return used_as_verb(word, description)


def used_as_verb(word: str, description: str) -> bool:
    """Whether a description uses `word` as a verb: a sentence or clause opens with one of its verb forms, or one
    follows "to", "then", "and", "or", "can" or "will"."""
    forms = "|".join(sorted(map(re.escape, _verb_forms(word.lower()))))
    return re.search(rf"(?:^|[.!?:;,]\s+|\n\s*|\b(?:to|then|and|or|can|will)\s+|\bperform(?:s|ing)?\s+(?:an?\s+)?)"
                     rf"(?:{forms})\b", description.strip(), re.I) is not None


def _irregular(word: str) -> bool:
    """Whether the lexicon gives `word` an irregular past tense (take/took, go/went): such words are verbs first."""
    import lemminflect

    past = lemminflect.getAllInflections(word, "VERB").get("VBD", ())
    return bool(past) and not any(form.endswith("ed") for form in past)


def is_noun(word: str) -> bool:
    """Whether an English lexicon has `word` as a noun (`shell`, `link`, `forecast`)."""
    return "NOUN" in _lemmas(word.lower())


def verb_of(words: list[str]) -> str:
    """The verb of a name's words: the first word, unless the name is noun_verb (`shell_execute`: a noun, then
    a word that is only a verb), then the last."""
    if len(words) >= 2 and is_verb(words[-1]) and not is_noun(words[-1]) and is_noun(words[0]) \
            and words[0] not in VERBS:
        return words[-1]
    return words[0] if words else ""


def _prefixes(prefix: Prefixes) -> tuple[str, ...]:
    return (prefix,) if isinstance(prefix, str) else tuple(prefix)


def namespaces(names: list[str]) -> tuple[str, ...]:
    """The `prefix_` (or `prefix-`) namespaces of a server's tools, longest first: a prefix two or more tools
    share (`jira_` and `confluence_`, or `kubectl_` on half the tools), unless it is their verb.

    A shared tool verb (`get_`, `list_`) is not a namespace: it is the start of each intent. A prefix that a
    lexicon calls a verb is still a namespace when every name after it starts with a verb (`file_read`,
    `file_write`).
    """
    groups: dict[str, list[str]] = {}
    for name in names:
        last = name.rsplit(".", 1)[-1]
        for head in re.finditer(r"[_-](?=[A-Za-z0-9])", last):
            prefix = last[:head.end()]
            if any(word in VERBS for word in name_words(prefix)):
                break  # a prefix that holds a tool verb is the start of an intent (`get_`, `kubectl_get_`)
            groups.setdefault(prefix, []).append(last[head.end():])
    found = []
    for prefix, rests in groups.items():
        words = name_words(prefix)
        if len(rests) < 2:
            continue
        if not is_verb(words[0]) or all(is_verb((name_words(rest) or [""])[0]) for rest in rests):
            found.append(prefix)
    return tuple(sorted(found, key=lambda p: (-len(p), p)))


def namespace(names: list[str]) -> str:
    """The one namespace of a server's tools (`namespaces`), or "" when there is none or more than one."""
    found = namespaces(names)
    return found[0] if len(found) == 1 and all(name.rsplit(".", 1)[-1].startswith(found[0]) for name in names) \
        else ""


def _intent(name: str, prefix: Prefixes = "") -> tuple[list[str], bool]:
    """The words of a name's intent (after a dotted namespace and a shared `prefix`), and whether it had one."""
    rest = name.rsplit(".", 1)[-1]
    spaced = "." in name
    for one in _prefixes(prefix):
        if one and rest.startswith(one) and len(rest) > len(one):
            rest, spaced = rest[len(one):], True
            break
    return name_words(rest), spaced


def is_verb_object(name: str, prefix: Prefixes = "", description: str | None = None) -> bool:
    """Whether a name starts with a verb and names an object after it (any spec-legal casing).

    A dotted prefix is a namespace, not part of the intent: `weather.get_forecast` is judged as `get_forecast`;
    so is a `prefix` the server's tools share (`namespaces`). After a namespace the verb alone will do, since
    the namespace is its object (`git_commit`), as will a state word (`git_status`). A verb is a word an
    English lexicon has as a verb (`is_verb`), or, given the tool's `description`, one it uses as a verb
    (`is_verb_here`); a noun_verb name (`shell_execute`) does not count.
    """
    words, spaced = _intent(name, prefix)
    if not words or not all(word.isalnum() and word.isascii() for word in words):
        return False
    if _api_method(name) or _scoped_verb_object(words):
        return True
    if any(_prefixes(prefix)) and spaced and len(words) == 1:
        verb = is_verb(words[0]) if description is None else is_verb_here(words[0], description)
        return verb or words[0] in STATE_WORDS
    if description is None:
        return len(words) >= 2 and is_verb(words[0]) and verb_of(words) == words[0]
    return len(words) >= 2 and is_verb_here(words[0], description) and (
        verb_of(words) == words[0] or used_as_verb(words[0], description))


_BATCH = frozenset({"batch", "bulk"})
"""Words that may stand before a name's verb ("batch_get_file_contents", "batchGetId")."""


def _opens_with_tool_verb(words: list[str]) -> bool:
    """Whether words open with a tool verb of `VERBS`, after "batch" or "bulk" if any (batch get id)."""
    words = words[1:] if len(words) > 1 and words[0] in _BATCH else words
    return bool(words) and words[0] in VERBS


def _api_method(name: str) -> bool:
    """Whether a name is an API path ending in its method: a version segment (v1, v3), then the resource, and a
    last segment that is a verb (`bitable_v1_app_create`, `contact_v3_user_batchGetId`, `wiki_v2_space_getNode`)."""
    segments = name.rsplit(".", 1)[-1].split("_")
    versions = [i for i, segment in enumerate(segments) if re.fullmatch(r"v\d+", segment)]
    return bool(versions) and len(segments) - versions[0] >= 3 and _opens_with_tool_verb(name_words(segments[-1]))


def _scoped_verb_object(words: list[str]) -> bool:
    """Whether a name is a scope word, then a tool verb and its object (`wiki_upsert_page`), or "batch" or "bulk",
    a tool verb and its object (`batch_get_file_contents`): the verb is no less clear for what stands before it."""
    if words[0] in _BATCH:
        return len(words) >= 3 and words[1] in VERBS
    return len(words) >= 3 and not is_verb(words[0]) and _opens_with_tool_verb(words[1:])


MUTATING_VERBS = frozenset(
    "create add make insert append post put set update edit change modify patch rename move copy merge split delete "
    "remove drop clear cancel close open reopen archive restore undo revoke disable enable toggle send notify page "
    "alert email message reply forward publish share invite assign unassign escalate start stop run execute launch "
    "trigger deploy build install restart pause resume retry schedule book reserve order buy pay refund charge "
    "approve reject sign register upload import sync save store record mark flag tag label comment note submit "
    "grant deny release claim lock unlock reset fix apply write commit checkout push pull rebase stash revert init "
    "exec kill spawn upsert migrate truncate alter transition link unlink reassign reorder reindex".split())
"""Verbs whose tools change something; such a tool without annotations leaves every host guessing."""


def mutates(name: str, prefix: Prefixes = "", description: str = "") -> bool:
    """Whether a tool's name says it changes things: its verb (first word, or last in noun_verb order) does,
    unless that word is a noun too (build, run, pull, message) and the description says the tool reads
    ("Retrieve build data", "Get chat history")."""
    words, _ = _intent(name, prefix)
    if not words:
        return False
    verb = verb_of(words) if is_verb(words[0]) else words[-1]
    return verb in MUTATING_VERBS and not (is_noun(verb) and reads_by_description(description, verb))


_OPENING = re.compile(r"(?:^|[.!?]\s+|\n\s*|-\s*)\[?([A-Za-z]+)")
_READS = frozenset({"search", "get", "list", "query", "find", "read", "fetch", "retrieve", "show", "view", "count",
                    "describe", "lookup", "browse", "inspect", "obtain", "return"})


def reads_by_description(description: str, noun: str = "") -> bool:
    """Whether a description's openings (of its sentences, and of the "-"-separated parts of a heading such as
    "[Feishu/Lark]-Messaging-Get chat history") read ("Retrieve", "Obtains") and none of them changes things;
    `noun`, the name's own noun-like word ("Message management"), is no change."""
    opened = {lemma(word) for word in _OPENING.findall(description or "")} - {noun}
    return bool(opened & _READS) and not opened & (MUTATING_VERBS | ACTING_VERBS)


DESTRUCTIVE_VERBS = frozenset(
    "delete remove drop truncate purge destroy erase wipe kill terminate reset revert overwrite clear uninstall "
    "unlink unpublish".split())
"""Verbs whose tools delete or overwrite; such a tool without annotations is an error, not a warning."""
HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
"""The annotations that say how a tool acts (a `title` says nothing about it)."""


def hints(definition: dict) -> dict[str, Any]:
    """The behaviour hints among a definition's annotations (a title-only annotations object has none)."""
    annotations = definition.get("annotations") or {}
    return {key: annotations[key] for key in HINTS if isinstance(annotations, dict) and key in annotations}


_DROPPED = frozenset("table tables database databases db index indexes collection collections schema column columns "
                     "view views".split())


def destroys(name: str, prefix: Prefixes = "", kinds: frozenset[str] = DESTRUCTIVE_VERBS) -> bool:
    """Whether a tool's name says it deletes or overwrites: its verb is a destructive one (`drop` only of a table,
    a database, an index and the like: `browser_drop` drops files onto a page)."""
    words, _ = _intent(name, prefix)
    verb = words[0] if words and words[0] in kinds else words[-1] if words and words[-1] in kinds else ""
    return bool(verb) and (verb != "drop" or bool(set(words) & _DROPPED))


READING_VERBS = frozenset("search get list query find read fetch retrieve show view count check verify describe lookup "
                          "look browse inspect explain".split())
"""Verbs of tools that only read; such a tool marked destructive contradicts itself."""
ACTION_PARAMS = frozenset("action actions operation operations op command cmd subcommand mode method verb".split())
"""Names of a parameter that picks what a tool does."""
_FREEFORM_NAMES = frozenset("sql wiql code script javascript js snippet statement command cmd commands".split())
_CODE_IDS = frozenset("language country currency locale region postal zip area status error exit http response "
                      "verification promo coupon discount invite color colour product iso state".split())
"""Words before `_code` that make it an identifier (`language_code`: an ISO code), not a code payload."""
_FREEFORM_TEXT = re.compile(r"\b(?:sql|javascript|js|typescript|python|bash|shell|kubectl|powershell|playwright) "
                            r"(?:query|queries|statements?|code|scripts?|snippets?|commands?|expressions?|functions?|"
                            r"source)\b|\b(?:raw|arbitrary|any) (?:sql|code|javascript|commands?|kubectl)\b|"
                            r"\bexecutable code\b|\bjavascript\b", re.I)
DELETING_VERBS = DESTRUCTIVE_VERBS - {"kill", "terminate"}
"""Verbs of tools that delete or overwrite data (stopping a process is destructive, but no preview helps)."""
SURE_CHANGES = frozenset(
    "create add insert append post put set update edit modify patch rename move delete remove drop clear cancel close "
    "archive restore revoke disable enable send publish assign write commit push merge upload import install uninstall "
    "kill reset revert truncate save store deploy submit approve reject pay refund charge book reserve grant deny lock "
    "unlock purge destroy erase wipe overwrite".split())
"""Verbs that change something whatever their object (`open`, `start`, `run` may only read: open_nodes, start_search)."""
_PREVIEW_WORDS = frozenset("dry preview confirm confirmation idempotency idempotent request client token expected etag "
                           "if match".split())


def _verbs_said(definition: dict, prefix: Prefixes = "") -> set[str]:
    """The verbs a tool says it does: its name's verb and the verbs that open its description's first sentence
    or follow a comma or "or" there ("List, create, close, or select a tab")."""
    words, _ = _intent(definition.get("name") or "", prefix)
    said = {verb_of(words)} if words and is_verb(words[0]) else set()
    first = (sentences(without_boilerplate(definition.get("description") or "")) or [""])[0]
    listed = re.match(r"\s*[A-Za-z]+(?:\s*,\s*[A-Za-z]+)*(?:,?\s+(?:or|and)\s+[A-Za-z]+)?", first)
    for word in re.findall(r"[A-Za-z]+", listed.group(0) if listed else ""):
        if word.lower() not in ("or", "and") and is_verb(lemma(word)):
            said.add(lemma(word))
    return said


def lemma(word: str) -> str:
    """A word's verb lemma ("Searches" -> "search"), or the word in lower case."""
    verbs = _lemmas(word.lower()).get("VERB", ())
    return verbs[0] if verbs else word.lower()


def action_values(schema: dict) -> list[str]:
    """The string values of an enum (or of an array's enum items)."""
    items = schema.get("items") if isinstance(schema.get("items"), dict) else {}
    values = schema.get("enum") or items.get("enum") or []
    return [value for value in values if isinstance(value, str)]


def overloaded(param: str, schema: dict) -> list[str]:
    """The actions an action-picking parameter mixes, when they both read and change (list|new|close|select),
    else []."""
    if param.lower() not in ACTION_PARAMS and (name_words(param) or [""])[-1] not in ACTION_PARAMS:
        return []
    values = action_values(schema)
    verbs = [(value, lemma((name_words(value) or [""])[0])) for value in values]
    reads = [value for value, verb in verbs if verb in READING_VERBS or verb in STATE_WORDS or verb == "history"]
    changes = [value for value, verb in verbs if verb in MUTATING_VERBS or verb in DESTRUCTIVE_VERBS]
    return values if len(values) >= 3 and reads and changes else []


def freeform(param: str, schema: dict) -> bool:
    """Whether a parameter takes free-form code, SQL or a command line (by its name, or by what it says it takes)."""
    kinds = _types(schema) | _types(schema.get("items") or {}) if isinstance(schema.get("items"), dict) else _types(schema)
    if not kinds <= {"string", "array"} or not kinds or "enum" in schema:
        return False
    text = schema.get("description") if isinstance(schema.get("description"), str) else ""
    words = [word.lower() for word in name_words(param)]
    named = param.lower() in _FREEFORM_NAMES or (words[-1:] and words[-1] in ("sql", "wiql", "script")) or (
        words[-1:] == ["code"] and not (len(words) > 1 and words[-2] in _CODE_IDS))
    return bool(named) or (param.lower() in ("query", "function", "expression", "input") and bool(_FREEFORM_TEXT.search(text)))


ACTING_VERBS = SURE_CHANGES | frozenset("click fill type press select drag execute evaluate run submit fork".split())
"""Verbs of tools that act on something (a page, a shell): such a tool needs hints even when its name is a noun."""


def says_it_changes(definition: dict, prefix: Prefixes = "") -> bool:
    """Whether a tool's description opens with a verb that acts (Click, Fill, Execute) and does not call it
    read-only, while its name does not say it reads (`read_query` runs SELECTs)."""
    description = definition.get("description") or ""
    words, _ = _intent(definition.get("name") or "", prefix)
    if words and words[0] in READING_VERBS:
        return False
    acting = _verbs_said({"description": description}) & ACTING_VERBS
    return bool(acting) and not re.search(r"\bread-only\b|\bread only\b", description, re.I)


_SAVES_FILE = re.compile(r"\b(?:saves?|writes?|stores?)\b[^.\n]{0,30}\b(?:files?|to (?:disk|(?:a |the )?directory))\b", re.I)
"""A description that says the tool writes a file ("Saves output file to directory")."""
_KEEPS = re.compile(r"\b(?:saves?|stores?|writes?|persists?|uploads?)\b", re.I)


def _returns_only(description: str) -> bool:
    """Whether a "Create ..." description speaks of what it returns and of nothing it keeps ("Create a
    composition plan ... The returned plan"): the tool computes a thing, it changes nothing."""
    return re.search(r"\breturn(?:s|ed)?\b", description, re.I) is not None and not _KEEPS.search(description)


def contradictions(definition: dict, prefix: Prefixes = "") -> list[str]:
    """How a tool's annotations contradict its name, description or schema (lesson 04), as short reasons."""
    hinted = hints(definition)
    found = []
    if hinted.get("readOnlyHint") is True and hinted.get("destructiveHint") is True:
        found.append("readOnlyHint and destructiveHint are both true")
    verbs = _verbs_said(definition, prefix)
    words = {word.lower() for word in _intent(definition.get("name") or "", prefix)[0]}
    changes = verbs & SURE_CHANGES if not words & READING_VERBS else set()
    if hinted.get("readOnlyHint") is True:
        properties = (definition.get("inputSchema") or {}).get("properties") or {}
        changing = [value for param, schema in properties.items() if isinstance(schema, dict)
                    for value in overloaded(param, schema) if lemma((name_words(value) or [""])[0]) in SURE_CHANGES]
        if changing:
            found.append(f"readOnlyHint is true but its actions include {', '.join(changing)}")
        elif changes and not (changes <= {"create"} and _returns_only(definition.get("description") or "")):
            found.append(f"readOnlyHint is true but it says it changes things ({', '.join(sorted(changes))})")
        elif _SAVES_FILE.search(definition.get("description") or ""):
            found.append("readOnlyHint is true but it saves a file")
    description_verbs = _verbs_said({"description": definition.get("description")})
    if hinted.get("destructiveHint") is True and hinted.get("readOnlyHint") is not True and description_verbs \
            and description_verbs <= READING_VERBS:
        found.append(f"destructiveHint is true but it only reads ({', '.join(sorted(description_verbs))})")
    return found


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


_ABBREVIATION = re.compile(r"\b(?:e\.\s?g|i\.\s?e|etc|vs|cf|approx|incl|esp|resp|no|min|max|sec|ms)\.(?=\s)", re.I)
_CODE_SPAN = re.compile(r"```.*?```|`[^`\n]*`", re.S)


def sentences(text: str) -> list[str]:
    """The sentences of a description: split on ., ! or ? followed by space, and at blank lines, but not after an
    abbreviation ("e.g. 'a'", "etc.") nor inside a code span (`a.b`)."""
    kept: list[str] = []

    def hide(match: re.Match) -> str:
        kept.append(match.group(0))
        return f"\x00{len(kept) - 1}\x00"

    masked = _ABBREVIATION.sub(hide, _CODE_SPAN.sub(hide, text.strip()))
    parts = re.split(r"(?<=[.!?])\s+|\n\s*\n", masked)
    restore = lambda part: re.sub(r"\x00(\d+)\x00", lambda m: kept[int(m.group(1))], part)  # noqa: E731
    return [restore(part).strip() for part in parts if part.strip()]


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


def limits_use(clause: str, *, negation_in_condition: bool = False) -> bool:
    """Whether a clause limits when the tool is used (a when-not), in any phrasing.

    A limit speaks of using the tool: an order ("Do not use it for", "Never", "Avoid", "Not for", "Only"),
    the tool's own limits ("it does not", "this tool cannot"), another tool instead, or a condition ("only
    after", "unless"). A "not" that describes the data ("changes that are not yet staged") limits nothing,
    nor does a double negative, "do not hesitate", "not only", or a limit with no content ("do not use it
    incorrectly"); "does not X, and is never Y" limits twice (judged part by part). With `negation_in_condition`
    (see `invites_use`), a when whose only negation is in its condition ("use it when you cannot recall the ID")
    is limited only by "only" or "unless", or by a part of its own ("..., not for one incident").
    """
    clause = _NOT_LIMITING.sub(" ", clause)
    parts = _PART_SPLIT.split(clause)
    if negation_in_condition and invites_use(clause, negation_in_condition=True) and not invites_use(clause):
        return _RESTRICTING.search(clause) is not None or (len(parts) > 1 and any(
            limits_use(part, negation_in_condition=True) for part in parts))
    return _limits(clause) or any(_limits(part) for part in parts)


def opens_with_what(description: str) -> bool:
    """Whether the description's first sentence says what the tool does, not when (not) to use it."""
    first = (sentences(description) or [""])[0]
    return len(first.split()) >= 3 and _OPENS_WITH_INSTRUCTION.match(first) is None


def invites_use(clause: str, *, negation_in_condition: bool = False) -> bool:
    """Whether a clause says when to use the tool (a when); "use it only after X" is a when and a limit.

    A condition on the tool's behaviour ("if the destination exists, it fails") is not a when; one on the
    person's need ("when you need to ...", "if the user asks ...") is. Any negation makes the clause no when,
    unless `negation_in_condition`: then only one before the condition turns the use away ("do not use it when",
    "never call it"), and one inside it ("use it when you do not know the ID", "to find tickets that are not
    closed") is part of the when. The exercise checkers read learner text so; `review` keeps the plain reading,
    which its corpus verdicts were measured with.
    """
    clause = _CAUTION.sub(" ", _NOT_LIMITING.sub(" ", clause))
    use = _USE.search(clause)
    if use is None:
        return False
    condition = _CONDITION.search(clause, use.start()) if negation_in_condition else None
    first = condition is not None and condition.start() == use.start()  # "To read X, call Y instead": no use verb
    governing = clause[:condition.start()] if condition and not first else clause
    return _NEGATING.search(governing) is None or len(_NEGATIONS.findall(governing)) == 2


def says_when(description: str, *, negation_in_condition: bool = False) -> bool:
    """Whether a description has a clause telling the model when to use the tool (`invites_use`)."""
    return any(invites_use(clause, negation_in_condition=negation_in_condition)
               for clause in clauses(description)[1:] or clauses(description))


def names_alternative(clause: str, siblings: Iterable[str]) -> bool:
    """Whether a clause sends the model to another of the server's tools ("Use firecrawl_search when ...",
    "Prefer browser_verify_element_visible"): a when-not without a negation. Using one after or with another
    ("Use the IDs with get_create_fields") is a next step, not an alternative."""
    return any(re.search(rf"\b(?:use|prefer|call|try)\b(?:(?!\bover\b|\bthan\b|\binstead of\b)[^.;]){{0,60}}?"
                         rf"(?<!with )(?<!after )(?<!before )(?<!via )(?<!from )[`'\"]?{re.escape(other)}\b(?![`'\"]?\s+with\b)",
                         clause, re.I) for other in siblings if other)


def says_when_not(description: str, siblings: Iterable[str] = (), *, negation_in_condition: bool = False) -> bool:
    """Whether a description has a clause that limits when to use the tool, or names a sibling tool to use
    instead (`siblings`: the server's other tools); `negation_in_condition` as in `invites_use`."""
    return any(limits_use(clause, negation_in_condition=negation_in_condition)
               or names_alternative(clause, siblings) for clause in clauses(description))


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


def persuades(text: str, siblings: Iterable[str] = ()) -> bool:
    """Whether a text urges the model to prefer this tool over others ("always prefer this tool"). A sentence
    that prefers it over the server's own other tools (`siblings`), naming them, is advice on when to use it."""
    own = [other for other in siblings if other]
    return any(_PERSUASION.search(sentence) and not any(re.search(rf"\b{re.escape(o)}\b", sentence) for o in own)
               for sentence in sentences(text))


_FIELDISH = frozenset("id ids at by count type name names url uri status time date key keys value values "
                      "ms sec secs seconds bytes px".split())
"""Last words that make a snake_case word a field of a result or an argument (`query_id`, `start_ms`: a unit),
not a tool."""


_CALLED = re.compile(r"\b(?:call|calls|calling|called|use|uses|using|invoke|invoking|run|running|with|via|to|then|"
                     r"before|after|whenever)\b(?:\W+[\w'-]+){0,3}?\W*$", re.I)
"""What comes before a tool's name when a text speaks of calling it: a word of calling up to three words before
("whenever you call send_email", "call send_email and delete_file")."""


def tool_names_in(text: str) -> list[str]:
    """Words of a text that look like snake_case tool names spoken of as tools: a tool verb (`VERBS`), then an
    object that is not a field's last word or a past participle (`rate_limited`, `query_id` are result fields),
    after a word of calling ("call", "use", "with", "to") or before "tool"."""
    def toolish(match: re.Match) -> bool:
        words = name_words(match.group(0))
        before = text[max(0, match.start() - 40):match.start()]
        if re.search(r"\b(?:instead of|rather than|not|nor|or)\W*$", before, re.I):
            return False  # an alternative or an exception ("instead of 'execute_command'"), no order about it
        spoken = _CALLED.search(before) is not None or \
            re.match(r"\W*(?:tool|function)\b", text[match.end():match.end() + 12], re.I) is not None
        return spoken and words[0] in VERBS and is_verb_object(match.group(0)) and words[-1] not in _FIELDISH \
            and not words[-1].endswith("ed")
    return list(dict.fromkeys(match.group(0) for match in _TOOLISH.finditer(text) if toolish(match)))


def _keys_in(schema: Any) -> set[str]:
    """Every property name and enum value anywhere in a schema (fields a description may speak of)."""
    found: set[str] = set()
    if isinstance(schema, dict):
        found |= set(schema.get("properties") or {}) if isinstance(schema.get("properties"), dict) else set()
        found |= {value for value in schema.get("enum") or () if isinstance(value, str)}
        for value in schema.values():
            found |= _keys_in(value)
    elif isinstance(schema, list):
        for value in schema:
            found |= _keys_in(value)
    return found


def _poisoning(definition: dict, siblings: Iterable[str] = ()) -> list[tuple[str, str, str]]:
    """(rule, advice, level) for instructions, persuasion and hidden characters in the texts a model reads."""
    found = []
    for where, text in texts_read(definition):
        hidden = hidden_characters(text)
        if hidden:
            found.append(("description-hidden-text", f"the {where} holds {len(hidden)} invisible character(s) "
                          f"({', '.join(dict.fromkeys(hidden[:3]))}...): a model reads them, a person does not", ""))
        kinds = orders(with_hidden(text))
        if kinds:
            found.append(("description-instructions", f"the {where} gives the model orders ({', '.join(kinds)}): "
                          "describe the tool; never tell the model what else to do", "warning" if set(kinds) <= UNCERTAIN
                          else ""))
        if persuades(text, siblings):
            found.append(("description-persuasion", f"the {where} urges the model to prefer this tool: say when "
                          "to use it and when not, and let the model choose", ""))
    return found


_FILLER = frozenset("a an the this that tool tools function server mcp api helper utility".split())
_QUOTED = re.compile(r"""'([^'\n]{1,40})'|"([^"\n]{1,40})"|`([^`\n]{1,40})`""")
_EXAMPLES = re.compile(r"\b(?:e\.\s?g\b|for example|for instance|such as|like|i\.e\b|examples?\b|good:|bad\b|"
                       r"instead of|etc\b)", re.I)
_CLOSED_LIST = re.compile(r"\b(?:options|supported(?: values| types| formats)?|valid values|allowed values|"
                          r"possible values|accepted values|available (?:values|options)|one of)\s*:\s*(.+)", re.I)
_VALUE = re.compile(r"[\w.+-]{1,30}")
_OPEN_CHOICE = re.compile(r"\bor (?:any|another|other|a|an)?\s*(?:string|text|value|name|number)s?\b|\bor (?:a|any) custom\b",
                          re.I)
"""A list left open ("\"accept\", \"dismiss\", or string for ..."): not a closed choice."""
_CHOICE_WORDS = re.compile(r"\b(?:or|one of|either|whether)\b", re.I)
_ONE_OF = re.compile(r"\b(?:one of|either)\b:?\s+([\w.-]+(?:\s*,\s*[\w.-]+)*\s*,?\s+or\s+[\w.-]+)", re.I)
_COUNTS = frozenset("limit count max size days hours minutes seconds ms timeout top n num length lines depth width "
                    "height delay duration radius port replicas tail head steps grace concurrency breadth age wait "
                    "results items k pages retries attempts".split())
_DOCUMENT = re.compile(r"\b(?:diffs?|differences|patch(?:es)?|markdown|html|contents? of|images?|audio|base64|"
                       r"screenshots?|snapshots?|heapsnapshot|accessibility (?:tree|snapshot)|a11y|logs from|log lines|"
                       r"console|stdout|(?:return|returns|read|reads|print|prints)\s+(?:the\s+|its\s+|newly available\s+)?"
                       r"output|output of|output from|trace|headers and body|code snippet|(?:shell|kubectl|terminal|cli|"
                       r"system|bash) commands?|prompt|documentation|docs|"
                       r"source code|latex|pdf|csv|transcripts?|javascript|css (?:rules|styles)|readme|"
                       r"resource links?|resource reference|as a resource|embedded resource|echo(?:es)?)\b", re.I)


_BOILERPLATE = re.compile(r"^\s*(?:error responses?|responses?|status codes?|errors?|raises|throws)\s*:.*\Z|"
                          r"^\s*\d{3}\s*:.*$", re.I | re.M | re.S)
"""Generated text that says nothing about what a tool does: an "Error Responses:" block, HTTP status lines."""


def without_boilerplate(description: str) -> str:
    """A description less generated boilerplate (error-response blocks, status lines) and a heading that an
    OpenAPI generator put first (a one-word line, or "Notion | " before the summary)."""
    text = re.sub(r"^[\w .-]{1,30}?\s+\|\s+", "", _BOILERPLATE.sub("", description or "").strip())
    lines = text.splitlines()
    if len(lines) > 1 and len(lines[0].split()) == 1 and not lines[0].rstrip().endswith((".", ":")):
        text = "\n".join(lines[1:]).strip()
    return text


def says_what(description: str, name: str = "") -> bool:
    """Whether the description's first sentence says what the tool does, in words beyond its name.

    "Weather tool." for `weather` says nothing; "Switches branches" for `git_checkout` does; generated
    boilerplate ("Error Responses: 400: Bad request") says nothing either.
    """
    first = (sentences(without_boilerplate(description)) or [""])[0]
    words = {word.removesuffix("s") for word in re.findall(r"[a-z0-9]+", first.lower())}
    own = {word.removesuffix("s") for word in name_words(name)} | _FILLER
    return len(re.findall(r"\w+", first)) >= 2 and not words <= own


def listed_choices(text: str, names: Iterable[str] = ()) -> list[str]:
    """The values a text lists as a closed choice ("'local', 'remote' or 'all'", "one of a, b or c", "Options: a,
    b, c"), or []. Examples ("e.g.", "Examples:", "etc.") are not a closed list, nor are `names` (the tool's
    parameters: "either url or scrapeId" names two arguments), nor text inside code blocks."""
    names = set(names)

    def values(found: Iterable[str]) -> list[str]:
        kept = [value.strip().rstrip(".") for value in found]
        kept = list(dict.fromkeys(value for value in kept if value and value not in names))
        closed = len(kept) >= 2 and all(_VALUE.fullmatch(value) for value in kept)
        return kept if closed and {value.lower() for value in kept} != {"true", "false"} else []

    bare = re.fullmatch(r"\s*([\w.+-]+(?:\s*,\s*[\w.+-]+)*,?\s+or\s+[\w.+-]+)\s*\.?\s*", text)
    if bare and values(re.split(r"\s*,\s*|\s+or\s+", bare.group(1))):
        return values(re.split(r"\s*,\s*|\s+or\s+", bare.group(1)))  # the whole text is the list: "metric or imperial"
    for sentence in sentences(re.sub(r"```.*?```", " ", text, flags=re.S)):
        if _EXAMPLES.search(sentence) or _OPEN_CHOICE.search(sentence):
            continue
        listed = _CLOSED_LIST.search(sentence)
        if listed:
            found = values(re.split(r"\s*,\s*|\s+or\s+|\s*\|\s*", re.sub(r"\([^)]*\)|['\"`]", "", listed.group(1))))
            if found:
                return found
        quoted = [next(group for group in match.groups() if group is not None) for match in _QUOTED.finditer(sentence)]
        if len(set(quoted)) >= 2 and _CHOICE_WORDS.search(sentence) and values(quoted):
            return values(quoted)
        spelled = _ONE_OF.search(sentence)
        if spelled and values(re.split(r"\s*,\s*|\s+or\s+", spelled.group(1).strip())):
            return values(re.split(r"\s*,\s*|\s+or\s+", spelled.group(1).strip()))
    return []


_ARG_LINE = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*(?:\([^)]*\))?\s*:\s*(.*)$")


def documented_arguments(description: str) -> dict[str, str]:
    """What a docstring's "Args:" (or "Parameters:") section says about each parameter, which the model reads
    in the description: {"max_results": "Maximum number of results to return, between 1 and 20"}."""
    found: dict[str, str] = {}
    section = re.search(r"^\s*(?:args|arguments|parameters|params)\s*:\s*$(.*)", description or "", re.I | re.M | re.S)
    if not section:
        return found
    current, listed = "", False
    for line in section.group(1).splitlines():
        entry = _ARG_LINE.match(line)
        if entry and len(line) - len(line.lstrip()) <= 12:
            current, listed = entry.group(1), False
            found[current] = entry.group(2).strip()
        elif current and line.strip():
            listing = _VALUE.fullmatch(line.strip()) and (found[current].endswith(":") or listed)
            found[current] += (", " if listing and not found[current].endswith(":") else " ") + line.strip()
            listed = bool(listing)  # a value a line to itself, after "Must be one of:", continues a list
        elif not line.strip() and current and found[current]:
            current = ""
    return found


def _types(schema: dict) -> set[str]:
    """The JSON types a schema allows, its anyOf/oneOf branches included (null left out)."""
    kinds = schema.get("type")
    found = set(kinds) if isinstance(kinds, list) else {kinds} if kinds else set()
    for branch in (schema.get("anyOf") or []) + (schema.get("oneOf") or []):
        if isinstance(branch, dict):
            found |= _types(branch)
    return found - {"null"}


def _described(schema: dict) -> bool:
    """Whether a parameter tells the model what goes in: a description, a fixed list, or described fields, on
    the schema or on one of its anyOf/oneOf branches."""
    if "description" in schema or "enum" in schema or "const" in schema:
        return True
    if any(isinstance(branch, dict) and branch.get("type") != "null" and _described(branch)
           for branch in (schema.get("anyOf") or []) + (schema.get("oneOf") or [])):
        return True
    fields = (schema.get("items") if schema.get("type") == "array" else schema) or {}
    properties = fields.get("properties") if isinstance(fields, dict) else None
    return bool(properties) and all(isinstance(p, dict) and "description" in p for p in properties.values())


def _choice(param: str, schema: dict, description: str, names: Iterable[str] = ()) -> tuple[str, list[str]] | None:
    """Why a parameter looks like a closed choice without an enum, with the values listed for it, or None.

    The values come from the parameter's own description, its entry in an "Args:" section, or a sentence of the
    tool's description that names it; a name alone (units, mode, ..._type) counts only for a parameter nothing
    describes. `names` are the tool's parameters, which are never values."""
    if "enum" in schema or "const" in schema or not _types(schema) <= {"string"}:
        return None
    text = schema.get("description") if isinstance(schema.get("description"), str) else ""
    text += " " + documented_arguments(description).get(param, "")
    mentions = " ".join(s for s in sentences(description) if re.search(rf"\b{re.escape(param)}\b", s))
    values = listed_choices(text, names) or listed_choices(mentions, names)
    if values:
        return f"{param!r} takes one of {', '.join(repr(value) for value in values)}: list them in an enum", values
    named = param.lower() in CLOSED_CHOICE_HINTS or (name_words(param) or [""])[-1] in CLOSED_CHOICE_HINTS
    if named and not text.strip():
        return f"{param!r} looks like a closed choice: give its schema an enum", []
    return None


_PROSE_MAXIMUM = re.compile(r"\b(?:max(?:imum)?|at most|up to|no more than|between\s+-?\d+(?:\.\d+)?\s+and)\s*:?\s*`?"
                            r"-?\d|\(\s*-?\d+\s*-\s*\d+\s*[,)]|\b\d+\s*-\s*\d+\s+(?:results|items|lines|chars)", re.I)
"""A maximum stated in prose ("max 200", "Maximum: 100", "at most 30", "between 1 and 20", "(1-50)")."""
_ORDINALS = frozenset("number index idx position version revision id offset start page".split())
"""Last words of a parameter that counts from a start (thoughtNumber, start_at): a minimum is bound enough."""
_GEO = frozenset("latitude longitude lat lng lon".split())


def _bounds(schema: dict) -> tuple[bool, bool]:
    """Whether a number schema (or any of its branches) has a lower and an upper bound."""
    branches = [schema] + [b for b in (schema.get("anyOf") or []) + (schema.get("oneOf") or []) if isinstance(b, dict)]
    lower = any("minimum" in b or "exclusiveMinimum" in b for b in branches)
    upper = any("maximum" in b or "exclusiveMaximum" in b for b in branches)
    return lower, upper


def unbounded(param: str, schema: dict, prose: str = "") -> str:
    """Why a numeric parameter needs bounds in its schema, or "".

    An integer needs some bound; a count, limit, size or duration (integer or number) needs a maximum; so does a
    number whose maximum is stated only in prose (`prose`: its descriptions). An ordinal or offset with a minimum
    (thoughtNumber, start_at) is bound enough, as is any other number with no stated limit (a coordinate, a
    target value)."""
    kinds = _types(schema)
    if not kinds & {"integer", "number"} or kinds - {"integer", "number"}:
        return ""
    lower, upper = _bounds(schema)
    if upper:
        return ""
    words = [word.lower() for word in name_words(param)]
    if _PROSE_MAXIMUM.search(prose):
        return "its maximum is stated only in prose"
    if lower and words and words[-1] in _ORDINALS:
        return ""
    if set(words) & _COUNTS or set(words) & _GEO:
        return "a count, limit, size or duration with no maximum"
    return "an integer with no bound at all" if "integer" in kinds and not lower else ""


_READING_VERBS = frozenset("get read fetch take capture export download show view retrieve render print dump "
                           "describe explain".split())


def returns_document(definition: dict) -> bool:
    """Whether the tool says its result is a document by nature: a diff, a page, contents, logs, a snapshot,
    media. Read in the description's sentences on what it returns, and, unless the name's verb changes things,
    in its first sentence and its name (`get_logs`; not `delete_image`, which returns a confirmation)."""
    words = name_words(definition.get("name") or "")
    said = sentences(without_boilerplate(definition.get("description") or ""))
    text = " ".join(s for s in said if re.search(r"\breturn|\boutput|\bresult", s, re.I))
    if not (set(words[:1]) | set(words[-1:])) & SURE_CHANGES:
        text += " " + " ".join(said[:1] + words)  # a tool that changes things returns a confirmation unless it says
    return _DOCUMENT.search(text) is not None


def _prose_output(output: dict) -> bool:
    """Whether an output schema is only the SDK's wrapper around one string (`{"result": string}`)."""
    properties = output.get("properties") or {}
    return set(properties) == {"result"} and (properties["result"] or {}).get("type") in (None, "string")


def review_tool(tool: Any, sdk: str | None = None, prefix: Prefixes = "", siblings: Iterable[str] = ()) -> list[Finding]:
    """The findings for one tool definition (an SDK `Tool` or its wire dict).

    `sdk` ("python" or "typescript") adds that SDK's idiom to the advice; `prefix` is the server's namespaces
    (`namespaces`) and `siblings` its other tools' names, which `review` finds from the whole list.
    """
    definition = wire.dump(tool)
    name = definition.get("name", "")
    description = definition.get("description") or ""
    findings: list[Finding] = []

    def add(rule: str, advice: str, parameter: str = "", level: str = "") -> None:
        findings.append(Finding(name, rule, advice, parameter, level))

    if not is_valid_name(name):
        add("name-spec", "use 1-128 characters of A-Z a-z 0-9 _ - . (the SDK only warns)")
    elif not is_verb_object(name, prefix, description):
        add("name-intent", "name the intent as verb_object, e.g. get_daily_forecast")
    if not says_what(description, name if isinstance(name, str) else ""):
        add("description-what", "say what it does and returns in a full sentence, then when to use it")
    if not says_when(description):
        add("description-when", "add a sentence that says when to use it ('Use it for ...')")
    if not says_when_not(description, siblings):
        add("description-when-not", "add a sentence that says when not to use it ('Do not use it for ...')")
    properties = (definition.get("inputSchema") or {}).get("properties") or {}
    documented = documented_arguments(description)
    for param, schema in properties.items():
        schema = schema if isinstance(schema, dict) else {}
        if not _described(schema) and not documented.get(param):
            add("param-described", f"describe parameter {param!r}"
                + _idiom("param-described", sdk, ' (a "description" in its schema)'), param)
        choice = _choice(param, schema, description, _keys_in(definition.get("inputSchema")))
        if choice:
            add("param-enum", choice[0] + _idiom("param-enum", sdk, values=choice[1]), param)
        why = unbounded(param, schema, f"{schema.get('description') or ''} {documented.get(param, '')}")
        if why:
            kind = "integer" if "integer" in _types(schema) else "number"
            add("param-bounds", f"bound {kind} {param!r} with a minimum and a maximum ({why})"
                + _idiom("param-bounds", sdk), param)
    if not hints(definition) and (mutates(name, prefix, definition.get("description") or "")
                                  or says_it_changes(definition, prefix)):
        destructive = destroys(name, prefix)
        add("annotations-missing", f"this tool {'deletes or overwrites' if destructive else 'changes'} things: say how "
                                   "with annotations (readOnlyHint false, destructiveHint, idempotentHint), or every "
                                   "host must assume the worst" + _idiom("annotations-missing", sdk),
            level="error" if destructive else "")
    for param, schema in properties.items():
        schema = schema if isinstance(schema, dict) else {}
        actions = overloaded(param, schema)
        if actions:
            add("param-action-enum", f"{param!r} picks among actions that read and change ({', '.join(actions)}): "
                "make one tool per action" + _idiom("param-action-enum", sdk), param)
        if freeform(param, schema):
            add("param-freeform", f"{param!r} takes free-form code, SQL or a command line: replace it with typed "
                "parameters for what you mean to allow" + _idiom("param-freeform", sdk), param)
    for why in contradictions(definition, prefix):
        add("annotations-contradict", f"its annotations contradict it: {why}" + _idiom("annotations-contradict", sdk))
    if destroys(name, prefix, DELETING_VERBS) and not any(set(map(str.lower, name_words(param))) & _PREVIEW_WORDS for param in properties) \
            and not any(other.startswith(("preview", "dry")) for other in siblings):
        add("destructive-no-preview", "it deletes or overwrites with no dry_run/preview parameter and no idempotency "
            "key" + _idiom("destructive-no-preview", sdk))
    for rule, advice, level in _poisoning(definition, siblings):
        add(rule, advice, level=level)
    output = definition.get("outputSchema") or {}
    if (not output or _prose_output(output)) and not returns_document(definition):
        add("output-structured", "declare an outputSchema with named fields, so hosts get structuredContent"
            + _idiom("output-structured", sdk))
    return findings


def review(tools: list[Any], sdk: str | None = None) -> list[Finding]:
    """The findings for a whole tool list, including names used twice and other servers' tools spoken of."""
    definitions = [wire.dump(tool) for tool in tools]
    prefix = namespaces([d.get("name") for d in definitions if isinstance(d.get("name"), str)])
    every = [d.get("name") for d in definitions if isinstance(d.get("name"), str)]
    findings = [finding for definition in definitions
                for finding in review_tool(definition, sdk, prefix, [n for n in every if n != definition.get("name")])]
    names = {d.get("name") for d in definitions}
    names |= {name[len(one):] for name in names if isinstance(name, str) for one in prefix if name.startswith(one)}
    params = {key for d in definitions for key in _keys_in([d.get("inputSchema"), d.get("outputSchema")])}
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
