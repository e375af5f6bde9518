"""The offline chooser: a lexical tool-search baseline (BM25 over the definitions), with no model and no network.

Hosts that defer loading tools retrieve the few that fit a request from an index like this one, so its
figures are real ones about retrieval; they are not a model's. How it chooses:

1. Each tool becomes a document: its name's words (twice), the description's clauses that do not
   limit use, and every parameter's name and description. Clauses that limit use ("Do not use it
   for X") go to a separate list of exclusions.
2. The request (only the user's words: earlier tool results are data, never instructions) is scored
   against every document with BM25 (the `bm25s` library); each request word that appears only in a
   tool's exclusions subtracts a constant penalty.
3. Candidates at or above `threshold` are tried best first; the first whose required arguments can be
   filled from the request wins. No candidate: no tool (abstention).
4. Arguments come from the schema: enum values named in the request, matches of a `pattern`, numbers
   within `minimum`/`maximum`, booleans whose parameter name the request says, a fresh UUID for
   `format: uuid`, quoted text or the text after a colon for free text, proper nouns for short strings;
   a tool whose only required input is one free-text string gets the whole request.

What it is not: it matches words, not meaning. "last week" does not match "in the past"; a synonym
the definition does not use scores nothing. It measures whether a definition *says* what a request
needs, not how a real model behaves. Its only knobs are generic (`threshold`, `penalty`, BM25's k1 and
b), chosen by `fit` on the tune split alone; no rule names a tool, a server or an eval case.
`LexicalAgent` runs the same retrieval over several steps, for the multi-step tasks.
"""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass
from typing import Any

from course_lib.evals.choice import Choice, ToolStep, Turn

STOPWORDS = frozenset(
    "a an the and or but if of to in on at by for from with without into onto about as is are was were be been "
    "being it its this that these those there here i me my we our you your he she they them their what which who "
    "whom whose how when where why can could would should will shall may might must do does did done have has had "
    "please tell give let lets any some all one per just also so than then too very not no yes up out over under "
    "again more most other such only own same both each few nor s t don now get got".split())
"""Words that carry no choice between tools (kept small and generic)."""

_WORD = re.compile(r"[A-Za-z0-9]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                 "nine": 9, "ten": 10, "a week": 7}
_DAY_WORDS = {"today": 1, "tomorrow": 2}
"""Days counted as a definition that says "starting today" counts them: tomorrow is the second day."""
_IDENTIFIER_WORDS = frozenset({"id", "key", "token", "uuid", "ref"})
"""Parameter-name words that mark an identifier: never filled with free text."""
_UUID_NAMESPACE = uuid.UUID("6f1c7a52-3d0e-4b8a-9c2f-0a1b2c3d4e5f")


def stem(word: str) -> str:
    """A light suffix stripper, so that "notes" meets "note" and "closing" meets "close"."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
        return word[:-1] if len(word) > 3 and word[-1] == word[-2] else word
    if len(word) > 4 and word.endswith("ed") and not word.endswith("eed"):
        word = word[:-2]
        return word[:-1] if len(word) > 3 and word[-1] == word[-2] else word
    if len(word) > 3 and word.endswith("es") and word[-3] in "sxz":
        word = word[:-2]
    elif len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    return word


def words(text: str) -> list[str]:
    """Lower-case stemmed content words of a text; camelCase and snake_case are split."""
    found = []
    for token in _WORD.findall(_CAMEL.sub(" ", text)):
        token = token.lower()
        if token not in STOPWORDS and not token.isdigit():
            found.append(stem(token))
    return found


def _limits_use(clause: str) -> bool:
    from course_lib import review

    return review.limits_use(clause)


def _schema_of(prop: dict, root: dict) -> dict:
    """A property schema with `$ref` resolved and `anyOf [X, null]` reduced to X."""
    seen = 0
    while "$ref" in prop and seen < 5:
        target: Any = root
        for part in prop["$ref"].lstrip("#/").split("/"):
            target = target.get(part, {}) if isinstance(target, dict) else {}
        prop = {**target, **{k: v for k, v in prop.items() if k != "$ref"}}
        seen += 1
    options = [option for option in prop.get("anyOf", []) if option.get("type") != "null"]
    if len(options) == 1:
        prop = {**_schema_of(options[0], root), **{k: v for k, v in prop.items() if k != "anyOf"}}
    return prop


@dataclass
class _Indexed:
    names: list[str]
    tools: list[dict]
    retriever: Any
    exclusions: list[set[str]]
    vocab: list[set[str]]


class OfflineChooser:
    """BM25 over the definitions, arguments from the schema, abstention below `threshold` (see the module doc)."""

    name = "offline"

    def __init__(self, threshold: float = 0.15, penalty: float = 0.5, read_prior: bool = False,
                 k1: float = 1.5, b: float = 0.75):
        self.threshold, self.penalty, self.read_prior = threshold, penalty, read_prior
        self.k1, self.b = k1, b
        self._indexes: dict[str, _Indexed] = {}

    # --- retrieval -------------------------------------------------------------------------------------

    def document(self, tool: dict) -> tuple[list[str], set[str]]:
        """A tool's indexed words and its exclusion words (from clauses that limit use)."""
        from course_lib import review

        name_words = words(tool["name"].replace("_", " ").replace(".", " ").replace("-", " "))
        kept, excluded = [], []
        for clause in review.clauses(tool.get("description") or ""):
            (excluded if _limits_use(clause) else kept).extend(words(clause))
        schema = tool.get("inputSchema") or {}
        for pname, prop in (schema.get("properties") or {}).items():
            prop = _schema_of(prop, schema)
            kept.extend(words(pname))
            kept.extend(words(prop.get("description", "")))
        doc = name_words * 2 + kept
        return doc, set(excluded) - set(doc)

    def _index(self, tools: list[dict]) -> _Indexed:
        key = json.dumps([[t.get("name"), t.get("description"), t.get("inputSchema")] for t in tools], sort_keys=True)
        found = self._indexes.get(key)
        if found is None:
            import logging

            import bm25s

            logging.getLogger("bm25s").setLevel(logging.WARNING)
            docs, exclusions = zip(*(self.document(tool) for tool in tools)) if tools else ((), ())
            retriever = bm25s.BM25(k1=self.k1, b=self.b)
            if tools:
                retriever.index([list(doc) or ["_"] for doc in docs], show_progress=False)
            found = _Indexed([t["name"] for t in tools], list(tools), retriever, list(exclusions),
                             [set(doc) for doc in docs])
            if len(self._indexes) > 256:
                self._indexes.clear()
            self._indexes[key] = found
        return found

    def scores(self, request: str, tools: list[dict]) -> dict[str, float]:
        """Each tool's score for a request: BM25 minus the exclusion penalty."""
        index = self._index(tools)
        if not tools:
            return {}
        query = list(dict.fromkeys(words(request)))
        raw = index.retriever.get_scores(query) if query else [0.0] * len(tools)
        return {name: float(score) - self.penalty * sum(1 for w in query if w in index.exclusions[i])
                for i, (name, score) in enumerate(zip(index.names, raw))}

    # --- choosing ----------------------------------------------------------------------------------------

    def choose(self, request: str, tools: list[dict], prior: tuple[Turn, ...] = (),
               steps: tuple[ToolStep, ...] = ()) -> Choice:
        """The best-scoring tool whose required arguments the request fills, or none below the threshold."""
        text = request
        if self.read_prior:  # the naive policy: every earlier turn, tool results included, is read as a request
            text = " ".join([*(turn.text for turn in prior), *(step.result for step in steps), request])
        scored = sorted(self.scores(text, tools).items(), key=lambda item: -item[1])
        by_name = {tool["name"]: tool for tool in tools}
        skipped = []
        for name, score in scored:
            if score < self.threshold:
                break
            arguments, missing = fill_arguments(by_name[name], text)
            if not missing:
                return Choice(name, arguments, f"score {score:.2f}")
            skipped.append(f"{name} needs {', '.join(missing)}")
        best = f"best score {scored[0][1]:.2f} < {self.threshold}" if scored and not skipped else ""
        return Choice(None, {}, "; ".join(skipped) or best or "no tools")


# --- arguments from the schema ----------------------------------------------------------------------------


def _numbers(text: str, counts_from_today: bool = False) -> list[tuple[int, int, float]]:
    """Numbers in the text as (start, end, value): digits and small number words; with `counts_from_today`,
    also "today" (1 day) and "tomorrow" (2 days: today and tomorrow)."""
    found = [(m.start(), m.end(), float(m.group())) for m in re.finditer(r"(?<![\w.-])\d+(?:\.\d+)?(?![\w-])", text)]
    lowered = text.lower()
    words = {**_NUMBER_WORDS, **(_DAY_WORDS if counts_from_today else {})}
    for word, value in words.items():
        for m in re.finditer(rf"\b{word}\b", lowered):
            found.append((m.start(), m.end(), float(value)))
    return sorted(found)


def _proper_nouns(text: str, vocabulary: set[str] = frozenset()) -> list[str]:
    """Runs of capitalized words, in order. At the start of a sentence, where any word is capitalized, a run
    counts when it has two or more words (a two-word place name) or its one word is neither a stopword nor a word of
    `vocabulary` (the tool's definition: "Show", "Add")."""
    found = []
    for m in re.finditer(r"\b([A-Z][a-z]+(?:\s+[A-Z][a-z]+)*)", text):
        run = m.group(1)
        starts_sentence = not text[:m.start()].strip() or text[:m.start()].strip()[-1:] in ".!?:"
        first = run.split()[0].lower()
        if starts_sentence and " " not in run and (first in STOPWORDS or stem(first) in vocabulary):
            continue
        if starts_sentence and " " in run and (first in STOPWORDS or stem(first) in vocabulary):
            run = run.split(None, 1)[1]  # a capitalized verb before a name is not part of the name
        found.append(run)
    return found


def _identifier(name: str) -> bool:
    """Whether a parameter name marks an identifier (incidentId, order_id, apiKey)."""
    return bool(set(words(name)) & _IDENTIFIER_WORDS)


def _free_text(text: str) -> str | None:
    """Quoted text, or the text after the first colon: what a request gives as a note or message.

    A single quote opens a quotation only at the start of a word and closes one only at the end of one, so
    an apostrophe ("it's", "don't") is never taken for a quote.
    """
    quoted = re.search(r"\"([^\"]{2,})\"|“([^”]{2,})”|‘([^’]{2,})’|(?<!\w)'([^']{2,})'(?!\w)", text)
    if quoted:
        return next(group for group in quoted.groups() if group is not None).strip()
    if ":" in text:
        after = text.split(":", 1)[1].strip()
        return after or None
    return None


def fill_arguments(tool: dict, request: str) -> tuple[dict[str, Any], list[str]]:
    """Arguments for `tool` taken from `request` by the schema's types, enums and patterns; and the required ones missing."""
    schema = tool.get("inputSchema") or {}
    properties = schema.get("properties") or {}
    required = set(schema.get("required") or [])
    arguments: dict[str, Any] = {}
    used: list[tuple[int, int]] = []
    request_words = set(words(request))
    lowered = request.lower()

    def free(start: int, end: int) -> bool:
        return all(end <= a or start >= b for a, b in used)

    strings: list[tuple[str, dict]] = []
    for name, raw in properties.items():
        prop = _schema_of(raw, schema)
        kind = prop.get("type")
        items = _schema_of(prop.get("items", {}), schema) if kind == "array" else {}
        enum = prop.get("enum") or ([prop["const"]] if "const" in prop else None) or items.get("enum")
        if enum:
            named = [value for value in enum if isinstance(value, str)
                     and re.search(rf"\b{re.escape(value.lower().replace('_', ' '))}\b", lowered.replace("_", " "))]
            if named:
                arguments[name] = named if kind == "array" else max(named, key=len)
        elif prop.get("pattern") or items.get("pattern"):
            pattern = (prop.get("pattern") or items.get("pattern")).removeprefix("^").removesuffix("$")
            try:
                matches = [m for m in re.finditer(pattern, request) if m.group() and free(m.start(), m.end())]
            except re.error:
                matches = []
            if matches:
                used.extend((m.start(), m.end()) for m in matches)
                arguments[name] = [m.group() for m in matches] if kind == "array" else matches[0].group()
        elif prop.get("format") == "uuid":
            arguments[name] = str(uuid.uuid5(_UUID_NAMESPACE, f"{tool['name']}|{request}"))
        elif kind in ("integer", "number"):
            low, high = prop.get("minimum", float("-inf")), prop.get("maximum", float("inf"))
            from_today = bool(re.search(r"\b(starting|from|counting from) today\b",
                                        f"{prop.get('description', '')} {tool.get('description') or ''}", re.I))
            for start, end, value in _numbers(request, from_today):
                if low <= value <= high and free(start, end):
                    arguments[name] = int(value) if kind == "integer" else value
                    used.append((start, end))
                    break
        elif kind == "boolean":
            if set(words(name)) <= request_words:
                arguments[name] = True
        elif kind == "string" or kind is None:
            strings.append((name, prop))
    # free-text strings last, so spans taken by patterns and enums are not reused
    note = _free_text(request)
    said = set()
    for value in [tool["name"], tool.get("description") or ""]:
        said |= set(words(value))
    nouns = [noun for noun in _proper_nouns(request, said) if noun not in str(arguments.values())]
    for name, prop in strings:
        limit = prop.get("maxLength", 10_000)
        long_text = limit > 100
        value = None
        if _identifier(name):
            value = None  # an identifier comes from a pattern or an earlier result, never from loose words
        elif long_text and note:
            value, note = note, None
        elif not long_text and nouns:
            value = nouns.pop(0)
        elif name in required and long_text and len(required) == 1:
            value = request.strip()  # the tool's one required input is free text (a query box): the request
        elif not (name in required):
            rest = [w for w in re.findall(r"[A-Za-z0-9-]+", request)
                    if w.lower() not in STOPWORDS and stem(w.lower()) not in said and not any(
                        w in str(v) for v in arguments.values())]
            value = " ".join(rest) if rest else None
        if value is not None and prop.get("minLength", 0) <= len(value) <= limit:
            arguments[name] = value
    missing = [name for name in properties if name in required and name not in arguments]
    return arguments, missing


# --- the lexical agent: the same retrieval, over several steps ---------------------------------------------------


def _evidence(messages: list[dict]) -> dict[str, list[Any]]:
    """Values found in earlier tool results, by field name (most recent result first, list order kept)."""
    found: dict[str, list[Any]] = {}

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if isinstance(item, (str, int, float)) and not isinstance(item, bool):
                    found.setdefault(key.lower(), []).append(item)
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for message in reversed(messages):
        if message["role"] == "tool" and not message.get("is_error"):
            try:
                walk(json.loads(message["text"]))
            except (json.JSONDecodeError, TypeError):
                continue
    return found


def sent_tokens(messages: list[dict], tools: list[dict] | None = None) -> int:
    """Tokens, by the course's tokenizer (`tokens.count`, o200k_base), of what a model would be sent: the
    conversation in its neutral form (`choice.conversation`) and the tool definitions as `tools/list` gives
    them, as compact JSON. A provider's own count adds its request wrapper and chat template's tokens."""
    from course_lib import tokens

    body: dict[str, Any] = {"messages": messages}
    if tools is not None:
        body["tools"] = [{key: tool[key] for key in ("name", "description", "inputSchema") if key in tool}
                         for tool in tools]
    return tokens.count(json.dumps(body, ensure_ascii=False, separators=(",", ":")))


class LexicalAgent:
    """An offline agent: each step retrieves tools for the request as `OfflineChooser` does, and fills a
    required argument the request lacks from a field of the same name in an earlier tool result.

    Its goal is the best-scoring tool for the request. It calls the goal once its arguments can be filled;
    until then it calls the next fillable candidate it has not called with those arguments (a lookup, a
    preview) to gather values. It stops when the goal has answered without error, or when no candidate
    is left. Its trajectories can fail: a lookup that finds nothing leaves the goal unfillable.
    """

    name = "offline-agent"

    def __init__(self, chooser: OfflineChooser | None = None):
        self.chooser = chooser or OfflineChooser()

    def step(self, messages: list[dict], tools: list[dict]):
        """One turn, with the tokens a model would be sent and would send for it (`sent_tokens`), never zeros."""
        from dataclasses import replace

        step = self.decide(messages, tools)
        return replace(step, tokens_in=sent_tokens(messages, tools),
                       tokens_out=sent_tokens([{"role": "assistant", "text": step.text, "calls": step.calls}]))

    def decide(self, messages: list[dict], tools: list[dict]):
        """The turn itself: text, or one tool call."""
        from course_lib.evals.agent import Step

        request = next(m["text"] for m in messages if m["role"] == "user")
        from course_lib.evals.agent import answered

        made = [(c["name"], json.dumps(c["arguments"], sort_keys=True), result is not None and not result.get("is_error"))
                for c, result in answered(messages)]
        ranked = [(name, score) for name, score in sorted(self.chooser.scores(request, tools).items(),
                                                          key=lambda item: -item[1]) if score >= self.chooser.threshold]
        if not ranked:
            return Step("No tool fits this request.")
        goal = ranked[0][0]
        if any(name == goal and ok for name, _, ok in made):
            return Step(f"Done: {goal} answered.")
        evidence = _evidence(messages)
        by_name = {tool["name"]: tool for tool in tools}
        for name, _ in ranked:
            arguments = self.arguments(by_name[name], request, evidence)
            if arguments is None or (name, json.dumps(arguments, sort_keys=True)) in {(n, a) for n, a, _ in made}:
                continue
            return Step("", [{"id": f"call_{len(made) + 1}", "name": name, "arguments": arguments}])
        return Step(f"Stuck: {goal} needs values no call has given.")

    @staticmethod
    def arguments(tool: dict, request: str, evidence: dict[str, list[Any]]) -> dict[str, Any] | None:
        """Arguments from the request, then missing required ones from results; None when some stay missing."""
        from course_lib.evals import score

        arguments, missing = fill_arguments(tool, request)
        schema = tool.get("inputSchema") or {}
        for name in missing:
            for value in evidence.get(name.lower(), []):
                trial = {**arguments, name: value}
                if not any(p.startswith(name) for p in score.schema_problems(trial, schema)):
                    arguments[name] = value
                    break
            else:
                return None
        return arguments


# --- fitting the settings on the tune split ---------------------------------------------------------------------

THRESHOLDS = tuple(round(0.05 * step, 2) for step in range(1, 11))
"""The thresholds `fit` tries: 0.05 to 0.50 in steps of 0.05."""


def fit(score_at: Any, thresholds: tuple[float, ...] = THRESHOLDS) -> float:
    """The threshold to ship: the one with the most tune cases right; among tied ones, the middle of the
    longest run of neighbours tied at that best (the lower middle when the run is even).

    `score_at(threshold) -> int` counts tune cases right; nothing else is looked at.
    """
    counts = [score_at(threshold) for threshold in thresholds]
    best = max(counts)
    runs, current = [], []
    for threshold, count in zip(thresholds, counts):
        if count == best:
            current.append(threshold)
        elif current:
            runs.append(current)
            current = []
    if current:
        runs.append(current)
    longest = max(runs, key=len)
    return longest[(len(longest) - 1) // 2]
