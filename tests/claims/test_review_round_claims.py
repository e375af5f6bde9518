"""Claims added by the claims review round of lessons 00, 01 and 04: the Gemini SDK's declaration fields,
`show.frames`' cut, and what `course review drafts` reports."""

from __future__ import annotations

import inspect
import json
import re

import pytest

from claims_ledger import cited_paragraphs, claim
from course_lib import show, wire


def _gemini_declaration():
    """`google.genai.types.FunctionDeclaration`, and the installed google-genai version."""
    from importlib.metadata import version

    from google.genai import types

    return types.FunctionDeclaration, version("google-genai")


def _as_json(text: str) -> str:
    """A string as a printed frame shows it: JSON-escaped, without its quotes."""
    return json.dumps(text, ensure_ascii=False)[1:-1]


def _quoted(paragraph: str) -> list[str]:
    return [" ".join(found.split()) for found in re.findall(r'"([^"]+)"', paragraph)]


@claim("gemini-function-declaration-response")
def test_gemini_function_declarations_have_the_output_fields_lesson_00_names():
    declaration, installed = _gemini_declaration()
    (paragraph,) = cited_paragraphs("gemini-function-declaration-response")
    named = set(re.findall(r"`(response\w*)`", paragraph))
    assert named == {"response", "response_json_schema"}, paragraph
    (quote,) = [q for q in _quoted(paragraph) if "output from this function" in q]
    for field in named:
        assert field in declaration.model_fields, f"FunctionDeclaration has no {field!r} in google-genai {installed}"
        assert quote in " ".join(declaration.model_fields[field].description.split()), field
    stated = re.search(r"google-genai (\d+\.\d+\.\d+)", paragraph)
    assert stated, "the sentence names the SDK version it was checked on"
    assert stated.group(1) == installed, f"the sentence names google-genai {stated.group(1)}, {installed} is installed"


@claim("gemini-function-name-rule")
def test_the_gemini_sdk_states_the_function_name_rule_lesson_01_quotes():
    declaration, installed = _gemini_declaration()
    (paragraph,) = cited_paragraphs("gemini-function-name-rule")
    assert re.search(r"\((\d+\.\d+\.\d+),", paragraph).group(1) == installed, "the version the sentence names"
    rule = " ".join(declaration.model_fields["name"].description.split())
    (quote,) = [q for q in _quoted(paragraph) if "maximum length" in q]
    assert quote in rule
    assert re.search(r"maximum length of (\d+)", quote).group(1) == "128"


@claim("show-frames-cuts-long-strings")
def test_show_frames_cuts_each_string_at_the_length_lesson_00_states():
    from course_lib.servers import weather

    (paragraph,) = cited_paragraphs("show-frames-cuts-long-strings")
    limit = int(re.search(r"longer\s+than (\d+) characters", paragraph).group(1))
    assert inspect.signature(show.frames).parameters["max_string"].default == limit
    tap = wire.Tap(weather.build_server())

    async def listing():
        async with wire.connect(tap) as client:
            await client.list_tools()

    wire.run_sync(listing)
    description = next(tool["description"] for _, frame in tap.frames
                       for tool in frame.get("result", {}).get("tools", []) if len(tool["description"]) > limit)
    printed = show.frames(tap.frames).text
    assert _as_json(description) not in printed
    assert _as_json(description[:limit]) + f"…(+{len(description) - limit} chars)" in printed
    assert _as_json(description) in show.frames(tap.frames, max_string=len(description)).text


@claim("review-drafts-misses-the-deletion")
def test_course_review_drafts_reports_only_a_naming_warning(capsys):
    from course_lib import cli

    (paragraph,) = cited_paragraphs("review-drafts-misses-the-deletion")
    assert "MCP103" in paragraph and "tidy_drafts" in paragraph
    code = cli.main(["review", "drafts"])
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("- ")]
    assert code == 0
    assert lines == ["- tidy_drafts: MCP103 [name-intent] warning: name the intent as verb_object, "
                     "e.g. get_daily_forecast"], lines


@claim("sdk-cached-tools-list-hides-new-tools")
@pytest.mark.parametrize("ttl_ms", [0, 600_000])
def test_a_client_sees_a_new_tool_at_its_next_listing_only_without_a_cached_list(ttl_ms):
    from mcp.server import CacheHint, MCPServer

    (paragraph,) = cited_paragraphs("sdk-cached-tools-list-hides-new-tools")
    assert "`ttlMs: 0`" in paragraph and 'cache_mode="refresh"' in paragraph
    options = {"cache_hints": {"tools/list": CacheHint(ttl_ms=ttl_ms, scope="private")}} if ttl_ms else {}
    server = MCPServer("growing", log_level="WARNING", **options)
    server.add_tool(lambda ticket_id: ticket_id, name="get_ticket", description="Read a ticket.")

    async def listings():
        async with wire.connect(server, wire.MODERN) as client:
            names = [[tool.name for tool in (await client.list_tools()).tools]]
            server.add_tool(lambda ticket_id: ticket_id, name="fetch_ticket", description="Read a ticket.")
            names.append([tool.name for tool in (await client.list_tools()).tools])
            names.append([tool.name for tool in (await client.list_tools(cache_mode="refresh")).tools])
        return names

    first, next_listing, refreshed = wire.run_sync(listings)
    assert first == ["get_ticket"] and refreshed == ["get_ticket", "fetch_ticket"]
    # the default (ttlMs 0): the next list_tools() fetches and sees it; a cached list hides it until refreshed
    assert next_listing == (refreshed if ttl_ms == 0 else first)
