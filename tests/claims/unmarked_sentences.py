"""List the lesson sentences that name the SDK, a database, a provider or the spec and carry no marker.

A review aid, not a test: a sentence it lists may be exact already (shown by the cell after it, or a key point
restating a marked paragraph); each one needs a look. A sentence counts as marked when its paragraph holds a
`<!-- claim: ... -->` or `<!-- spec: ... -->` marker (README.md).

    .venv/bin/python tests/claims/unmarked_sentences.py [notebooks solutions]
"""

from __future__ import annotations

import re
import sys

from claims_ledger import GLOSSARY, NOT_PROSE, SENTENCE_END, Cell, markdown_cells

WORDS = re.compile(r"\b(?:returns?|raises?|sends?|SDK|SQLite|PostgreSQL|Claude|Anthropic|OpenAI|Gemini|spec|"
                   r"specification|tiktoken|pydantic)\b")
MARK = re.compile(r"<!--\s*(?:claim|spec):")


def unmarked(cells: list[Cell]) -> list[tuple[str, str]]:
    """(cell, sentence) for every prose sentence naming a package, database, provider or the spec, unmarked."""
    found = []
    for cell in cells:
        for paragraph in re.split(r"\n\s*\n", GLOSSARY.split(cell.source, 1)[0]):
            if MARK.search(paragraph):
                continue
            prose = " ".join(NOT_PROSE.sub(" ", paragraph).split())
            found += [(cell.where, sentence) for sentence in SENTENCE_END.split(prose) if WORDS.search(sentence)]
    return found


def main(folders: list[str]) -> int:
    rows = unmarked(list(markdown_cells(tuple(folders) or ("notebooks",))))
    for where, sentence in rows:
        print(f"{where}: {sentence}")
    print(f"{len(rows)} unmarked sentences", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
