"""Claims added by claims review 5 (issue 28): tiktoken's model table, the SDK's lax pydantic check of arguments,
the traceback the SDK logs for a crashing tool, and Unicode's tag characters."""

from __future__ import annotations

import logging
import re

import jsonschema
from mcp.server import MCPServer

from claims_ledger import cited_paragraphs, claim
from course_lib import wire

MODEL = re.compile(r"\b(?:GPT-\d(?:\.\d)?(?:o|-turbo)?|o\d)\b")


@claim("tiktoken-model-encodings")
def test_tiktoken_names_the_encodings_the_lessons_give_for_each_model():
    from tiktoken.model import encoding_name_for_model

    paragraphs = cited_paragraphs("tiktoken-model-encodings")
    assert len(paragraphs) == 3, paragraphs  # lessons 00, 02 and 06
    for paragraph in paragraphs:
        # each encoding's models are the model names after it, up to the next encoding
        parts = re.split(r"`(o200k_base|cl100k_base)`", paragraph)
        named = {encoding: MODEL.findall(text) for encoding, text in zip(parts[1::2], parts[2::2])}
        assert named.get("o200k_base"), paragraph
        for encoding, models in named.items():
            for model in models:
                assert encoding_name_for_model(model.lower()) == encoding, (model, encoding)


@claim("sdk-validates-arguments-with-pydantic-lax")
def test_the_sdk_checks_arguments_with_lax_pydantic_not_with_the_input_schema():
    server = MCPServer("lax", log_level="WARNING")

    @server.tool()
    def echo(quantity: int = 0) -> str:
        """Echo the argument as the function receives it."""
        return repr(quantity)

    async def run():
        (tool,) = await wire.list_tools(server)
        async with wire.connect(server) as client:
            return tool.input_schema, await client.call_tool("echo", {"quantity": "3"})

    schema, result = wire.run_sync(run)
    assert not jsonschema.Draft202012Validator(schema).is_valid({"quantity": "3"})  # the schema forbids it
    assert not result.is_error and result.content[0].text == "3"  # pydantic (lax) converted it


@claim("sdk-logs-a-crashing-tools-traceback")
def test_the_sdk_logs_a_crashing_tools_traceback_and_sdk_warnings_keeps_one_line():
    server = MCPServer("crash", log_level="WARNING")

    @server.tool()
    def boom() -> str:
        """Fail."""
        raise ValueError("unreadable date")

    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    async def run():
        async with wire.connect(server) as client:
            return await client.call_tool("boom", {})

    logger, handler = logging.getLogger("mcp"), Keep(logging.WARNING)
    logger.addHandler(handler)
    try:
        with wire.sdk_warnings() as kept:
            result = wire.run_sync(run)
    finally:
        logger.removeHandler(handler)
    assert result.is_error
    (logged,) = [r for r in records if r.exc_info]
    traceback = logging.Formatter().formatException(logged.exc_info)
    assert traceback.startswith("Traceback") and "ValueError: unreadable date" in traceback
    assert "boom" in logged.getMessage()
    assert logged.getMessage() in kept and not any("Traceback" in m or "\n" in m for m in kept)


@claim("tag-characters-are-default-ignorable")
def test_the_tag_characters_lesson_07_names_are_default_ignorable_and_hide_doc_4():
    import regex

    from course_lib.servers import documents

    (paragraph,) = cited_paragraphs("tag-characters-are-default-ignorable")
    first, last = (int(code, 16) for code in re.findall(r"U\+([0-9A-F]{4,6})", paragraph)[:2])
    assert (first, last) == (0xE0020, 0xE007F)
    assert all(regex.fullmatch(r"\p{Default_Ignorable_Code_Point}", chr(c)) for c in range(first, last + 1))
    hidden = [c for c in documents.INVISIBLE if ord(c) > 0xFFFF]
    assert hidden and all(first <= ord(c) <= last for c in hidden)
