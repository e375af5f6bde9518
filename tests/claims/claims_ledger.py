"""The claims ledger: what a lesson cell cites, and the rules that tie each citation to its proof.

Three kinds of marking in a lesson's markdown (README.md beside this file describes them for authors):

* `<!-- claim: some-id -->`: the cell states a checked fact; exactly one test in tests/claims/ carries `@claim("some-id")`.
* `<!-- spec: TAG PATH -->`: the quotes that follow (see `spec_quotes`) are the spec's words at tag TAG, file PATH,
  vendored under tests/claims/spec/TAG/PATH.
* sentences about what a model, host, person or learner does are marked measured or a prediction (see `behaviour`).

Everything here reads files; nothing runs at import time.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SPEC = HERE / "spec"
FOLDERS = ("notebooks", "solutions")
"""Where citations count: the lessons and the exercise sources (exercises/ is built from solutions/)."""


def claim(claim_id: str) -> Callable:
    """Mark a test as the proof of one lesson claim (`<!-- claim: claim_id -->` in a notebook cell)."""
    if not CLAIM_ID.fullmatch(claim_id):
        raise ValueError(f"claim id {claim_id!r} is not kebab-case")
    return pytest.mark.claim(claim_id)


CLAIM_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
CLAIM = re.compile(r"<!--\s*claim:\s*(\S+)\s*-->")
SPEC_MARK = re.compile(r"<!--\s*spec:\s*(\S+)\s+(\S+)\s*-->")
SPEC_END = re.compile(r"<!--\s*/spec\s*-->")


@dataclass(frozen=True)
class Cell:
    path: Path
    index: int
    source: str

    @property
    def where(self) -> str:
        return f"{self.path.parent.name}/{self.path.name} c{self.index}"


def markdown_cells(folders: tuple[str, ...] = FOLDERS, root: Path = ROOT) -> Iterator[Cell]:
    """Every markdown cell of every notebook in `folders`, in order."""
    for folder in folders:
        for path in sorted((root / folder).glob("*.ipynb")):
            for index, cell in enumerate(nbformat.read(path, as_version=4).cells):
                if cell.cell_type == "markdown":
                    yield Cell(path, index, cell.source)


def cited_claims(cells: list[Cell]) -> dict[str, list[str]]:
    """Claim id -> the cells that cite it."""
    cited: dict[str, list[str]] = {}
    for cell in cells:
        for claim_id in CLAIM.findall(cell.source):
            cited.setdefault(claim_id, []).append(cell.where)
    return cited


def cited_paragraphs(claim_id: str, cells: list[Cell] | None = None) -> list[str]:
    """The paragraph after each `<!-- claim: claim_id -->` marker (to the next blank line), whitespace collapsed:
    what a claim test can read to assert the very numbers the sentence states."""
    found = []
    for cell in cells if cells is not None else markdown_cells():
        for mark in re.finditer(rf"<!--\s*claim:\s*{re.escape(claim_id)}\s*-->", cell.source):
            found.append(" ".join(re.split(r"\n\s*\n", cell.source[mark.end():].strip(), maxsplit=1)[0].split()))
    return found


def claims_tested(folder: Path = HERE) -> dict[str, list[str]]:
    """Claim id -> the tests that carry `@claim(id)`, read from the source (nothing is imported)."""
    tested: dict[str, list[str]] = {}
    for path in sorted(folder.glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                for decorator in node.decorator_list:
                    if (isinstance(decorator, ast.Call) and getattr(decorator.func, "id", "") == "claim"
                            and decorator.args and isinstance(decorator.args[0], ast.Constant)):
                        tested.setdefault(decorator.args[0].value, []).append(f"{path.name}::{node.name}")
    return tested


SKIPS = {"importorskip", "skip", "skipif"}


def skips(folder: Path = HERE) -> list[str]:
    """Every `pytest.importorskip(...)`, `pytest.skip(...)` or `skipif(...)` mark in the claim test files, as
    file:line. A skipped claim test proves nothing, yet the ledger counts it as the claim's test; so no claim
    test may skip (a missing SDK fails it: the `test` extra installs every SDK a claim reads)."""
    found = []
    for path in sorted(folder.glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in SKIPS:
                found.append(f"{path.name}:{node.lineno}")
    return found


# --- spec quotes -------------------------------------------------------------------------------------------

QUOTE = re.compile(r"\"((?:[^\"\n]|\n(?!\s*\n))+?)\"")
"""A double-quoted passage; it may wrap lines but not cross a blank line."""
ELLIPSIS = re.compile(r"\s*(?:\.\.\.|…)\s*")


@dataclass(frozen=True)
class SpecQuote:
    cell: Cell
    tag: str
    path: str
    text: str

    @property
    def vendored(self) -> Path:
        return SPEC / self.tag / self.path


def spec_quotes(cell: Cell) -> list[SpecQuote]:
    """The spec quotes a cell makes, each with the tag and file its marker names.

    A marker's scope runs from the marker to the first of: a blank line, the next marker that is not directly
    after it, `<!-- /spec -->`, or the end of the cell. Markers with only whitespace between them share one scope
    (the same words in two versions). In the scope, the quote is the `> ` blockquote lines if the scope starts with
    one, else every double-quoted passage in it.
    """
    quotes: list[SpecQuote] = []
    marks = list(SPEC_MARK.finditer(cell.source))
    group: list[re.Match] = []
    for number, mark in enumerate(marks):
        group.append(mark)
        following = marks[number + 1] if number + 1 < len(marks) else None
        if following is not None and not cell.source[mark.end():following.start()].strip():
            continue  # the next marker shares this scope
        scope = cell.source[mark.end():following.start() if following else len(cell.source)]
        scope = SPEC_END.split(scope, 1)[0]
        stripped = scope.lstrip(" \t\n")
        if stripped.startswith(">"):
            lines = []
            for line in stripped.splitlines():
                if not line.startswith(">"):
                    break
                lines.append(line[1:].strip())
            texts = [" ".join(lines)]
        else:
            texts = QUOTE.findall(re.split(r"\n\s*\n", scope, maxsplit=1)[0])
        quotes += [SpecQuote(cell, m.group(1), m.group(2), text) for m in group for text in texts]
        group = []
    return quotes


def normalise(text: str) -> str:
    """Markdown reduced to its words: links to their text, no emphasis, code ticks, escapes or HTML comments."""
    text = re.sub(r"<!--.*?-->", " ", text, flags=re.S)
    text = re.sub(r"\n[ \t]*\*(?![*/])", "\n", text)  # a doc comment's line-leading star (schema.ts)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"<[^>\s]+>", " ", text)  # HTML tags such as <code> in schema.mdx
    text = text.replace("\\", "").replace("`", "").replace("**", "").replace("__", "")
    text = re.sub(r"(?<!\w)\*(?=\S)|(?<=\S)\*(?!\w)", "", text)
    return " ".join(text.split())


def quote_found(quote: str, source: str) -> bool:
    """Every part of the quote (split at an ellipsis) appears, normalised, in the normalised source."""
    haystack = normalise(source)
    return all(normalise(part) in haystack for part in ELLIPSIS.split(quote) if part.strip())


# --- sentences about behaviour -------------------------------------------------------------------------------

ACTORS = r"(?:models?|hosts?|persons?|people|learners?|users?|readers?|Claude)"
SUBJECT = re.compile(rf"(?:^|[\s(])(?:(?:the|a|an|every|each|no|any|your|this|that|one|most|many)\s+)?"
                     rf"(?:\w+\s+)?{ACTORS}\b(?!`|\.\w|_)", re.I)
VERBS = ("read|reads|see|sees|choose|chooses|chose|pick|picks|picked|call|calls|called|approve|approves|approved|"
         "click|clicks|trust|trusts|trusted|ignore|ignores|ignored|retry|retries|retried|report|reports|reported|"
         "stop|stops|stopped|guess|guesses|guessed|follow|follows|followed|learn|learns|learned|understand|"
         "understands|decide|decides|decided|prefer|prefers|notice|notices|miss|misses|missed|copy|copies|copied|"
         "skim|skims|tend|tends|act|acts|invent|invents|invented|hallucinate|hallucinates|confuse|confuses|"
         "confused|loop|loops|give|gives|gave|fill|fills|filled|use|uses|used|show|shows|showed|send|sends|sent|"
         "pass|passes|passed|ask|asks|asked|write|writes|wrote|prefix|prefixes|keep|keeps|drop|drops|answer|answers")
VERB = re.compile(rf"\b(?:{VERBS})\b", re.I)
PARTICIPLE = r"\w+(?:ed|ing)\s+(?:to|with|by|from|for|in|on|through|over|at)\s+(?:\w+\s+){0,4}?"
"""A participle phrase between subject and verb ('a host connected to several servers sends ...'): at most
five more words, so the verb still belongs to the subject."""
MEASURED = re.compile(r"\(measured:[^)]+\)|\bprediction\b|\bwe (?:predict|expect)\b|\bpredicts?\b", re.I)
MODAL = re.compile(r"\b(?:may|might|can|could|cannot|should|must|would|will)\b(?:\s+\w+)?", re.I)
NOT_PROSE = re.compile(r"```.*?```|<!--.*?-->|^[ \t]*\|[^\n]*$|^#+ [^\n]*$", re.S | re.M)
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z*`(\"])")
COURSE_HOST = re.compile(r"\b(?:careful|trusting|course|course's|lesson's|your) host\b", re.I)
"""The course's own hosts (`host.careful`, `host.trusting`) and the learner's (`your host`, in an exercise): their
behaviour is code the notebook runs and shows."""
SCRIPTED = re.compile(r"\bscripted (?:person|model|host|agent)\b", re.I)
"""A lesson's scripted person or model (`host.person(...)`, a scripted call): the notebook runs the script."""
MODEL_INPUT = re.compile(r"\b(?:text|what|everything|words)\s+$", re.I)
"""'the text the model reads', 'what the model sees': naming the model's input, not reporting behaviour."""
GLOSSARY = re.compile(r"^## Glossary\b", re.M)


@dataclass(frozen=True)
class Sentence:
    cell: Cell
    text: str


def sentences(cell: Cell) -> list[str]:
    """The prose sentences of a markdown cell: no code blocks, tables, headings, comments or glossary."""
    text = GLOSSARY.split(cell.source, 1)[0]
    text = NOT_PROSE.sub("\n", text)
    text = re.sub(r"`[^`]*`", "CODE", text)  # a code span is never the subject (`host.careful` is course code)
    out = []
    for paragraph in re.split(r"\n\s*\n|\n\s*[*-]\s+|\n\s*\d\.\s+", text):
        out += [" ".join(part.split()) for part in SENTENCE_END.split(paragraph) if part.strip()]
    return out


def exempt(sentence: str) -> str | None:
    """Why a behaviour sentence needs no marking, or None. See README.md, "Sentences about behaviour"."""
    if MEASURED.search(sentence):
        return "marked"
    if sentence.rstrip().endswith("?"):
        return "question"
    if COURSE_HOST.search(sentence):
        return "course host"
    if SCRIPTED.search(sentence):
        return "scripted"
    if SPEC_MODAL.search(sentence):
        return "spec"
    if sentence.count('"') >= 2 and len(" ".join(QUOTE.findall(sentence)).split()) >= len(sentence.split()) / 2:
        return "quote"
    return None


SPEC_MODAL = re.compile(r"(?:\*\*)?\b(?:MUST|SHOULD|MAY)\b(?: NOT)?(?:\*\*)?\s+(?!(?:and|or|but|in|of)\b)[a-z]+")
"""A spec keyword governing a verb ('clients SHOULD show', 'hosts **MUST** consider'): the sentence states
what the spec asks. A keyword used as a noun ('the spec's MUST', 'a SHOULD') does not exempt the sentence."""


POPULATION = re.compile(rf"\b(?:many|most|few|some|all)\s+(?:\w+\s+)?{ACTORS}\b(?!`|\.\w|_)", re.I)
"""'many hosts', 'most models': a claim about a population, whatever its verb."""


def behaviour_claim(sentence: str) -> bool:
    """A sentence whose subject is a model, host, person, learner, user or reader doing something, or that
    says what many, most, few, some or all of them do."""
    for population in POPULATION.finditer(sentence):
        if not MODAL.match(sentence[population.end():].lstrip()):
            return True
    for subject in SUBJECT.finditer(sentence):
        if MODEL_INPUT.search(sentence[:subject.start() + 1]):
            continue
        window = sentence[subject.end():subject.end() + 80]
        verb = re.match(rf"\s*(?:{PARTICIPLE})?(?:(?:who|that)\s+)?(?:\w+ly\s+)?(?:{VERBS})\b", window, re.I)
        if verb and not MODAL.match(window.lstrip()):
            return True
    return False


def unmarked_behaviour(cells: list[Cell]) -> list[Sentence]:
    """Behaviour sentences with no measured/prediction marking and no exemption."""
    return [Sentence(cell, text) for cell in cells for text in sentences(cell)
            if behaviour_claim(text) and exempt(text) is None]
