"""Claims lessons 00-04 make about SDK 2.3 and pydantic: each test runs the behaviour against the installed
packages and asserts what the cited sentence says (tests/claims/README.md)."""

from __future__ import annotations

import datetime
import logging
import re
import sys
import typing
from enum import Enum
from typing import Annotated, Literal
from uuid import UUID

import mcp_types
import pydantic
import pytest
import typing_extensions
from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from claims_ledger import cited_paragraphs, claim
from course_lib import wire


def _server() -> MCPServer:
    return MCPServer("claims", log_level="WARNING")


async def _call(server, name: str, arguments: dict, era: str = wire.MODERN):
    async with wire.connect(server, era) as client:
        return await client.call_tool(name, arguments)


def call(server, name: str, arguments: dict, era: str = wire.MODERN):
    return wire.run_sync(_call, server, name, arguments, era)


@claim("lax-date-takes-midnight")
@pytest.mark.parametrize("era", wire.ERAS)
def test_lax_date_takes_midnight_timestamps_and_midnight_in_any_offset(era):
    server = _server()

    @server.tool()
    def day(when: datetime.date) -> str:
        """Echo a date."""
        return when.isoformat()

    got = {repr(sent): call(server, "day", {"when": sent}, era) for sent in
           [1791072000, 1791072000.0, "1791072000", "2026-10-09T00:00:00+02:00", "2026-10-09T00:00:00Z",
            "2026-10-09T00:00:01"]}
    accepted = {sent: r.content[0].text for sent, r in got.items() if not r.is_error}
    (sentence,) = cited_paragraphs("lax-date-takes-midnight")
    stated = re.findall(r"`(\d+|\"[^`\"]+\")` (?:became|becomes) (\d{4}-\d\d-\d\d)", sentence)
    assert len(stated) == 2, f"lesson 01 no longer gives two examples as '`input` became date': {sentence}"
    for sent, day in stated:
        assert accepted[repr(int(sent)) if sent.isdigit() else repr(sent.strip('"'))] == day, (sent, day)
    assert accepted == {"1791072000": "2026-10-04", "1791072000.0": "2026-10-04", "'1791072000'": "2026-10-04",
                        "'2026-10-09T00:00:00+02:00'": "2026-10-09", "'2026-10-09T00:00:00Z'": "2026-10-09"}


class Unit(str, Enum):
    metric = "metric"


@claim("strict-refuses-json-strings-for-python-types")
@pytest.mark.parametrize("era", wire.ERAS)
def test_strict_refuses_the_json_string_of_date_uuid_and_enum_and_raises_on_literal(era):
    server = _server()

    @server.tool()
    def day(when: Annotated[datetime.date, Field(strict=True)]) -> str:
        """Echo a date."""
        return when.isoformat()

    @server.tool()
    def ident(value: Annotated[UUID, Field(strict=True)]) -> str:
        """Echo a UUID."""
        return str(value)

    @server.tool()
    def unit(value: Annotated[Unit, Field(strict=True)]) -> str:
        """Echo a unit."""
        return value.value

    for name, argument in [("day", {"when": "2026-10-09"}),
                           ("ident", {"value": "12345678-1234-5678-1234-567812345678"}),
                           ("unit", {"value": "metric"})]:
        result = call(server, name, argument, era)
        assert result.is_error and "validation error" in result.content[0].text, (name, result)
    with pytest.raises(Exception, match="Unable to apply constraint 'strict'"):
        @server.tool()
        def pick(value: Annotated[Literal["a", "b"], Field(strict=True)]) -> str:
            """Echo a letter."""
            return value


def _iso_text(value):
    """The lesson's validator (lesson 03): only an ISO date string reaches pydantic's date."""
    if not isinstance(value, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        raise ValueError("use an ISO date, YYYY-MM-DD, such as 2026-10-09")
    return value


@claim("iso-date-before-validator")
@pytest.mark.parametrize("era", wire.ERAS)
def test_a_before_validator_takes_iso_dates_only_and_keeps_the_date_format(era):
    server = _server()

    @server.tool()
    def day(when: Annotated[datetime.date, BeforeValidator(_iso_text)]) -> str:
        """Echo a date."""
        return when.isoformat()

    assert call(server, "day", {"when": "2026-10-09"}, era).content[0].text == "2026-10-09"
    for refused in ["2026-10-09T00:00:00+02:00", 1791072000, "1791072000", "2026-02-30", "09.10.2026"]:
        assert call(server, "day", {"when": refused}, era).is_error, refused
    schema = wire.dump(wire.run_sync(wire.list_tools, server)[0])["inputSchema"]["properties"]["when"]
    assert schema.get("format") == "date"


class Days(BaseModel):
    days_left: int


class Point(BaseModel):
    x: int


@claim("mcpserver-checks-calltoolresult-lax-sends-it-unconverted")
@pytest.mark.parametrize("era", wire.ERAS)
def test_mcpserver_checks_a_returned_calltoolresult_in_lax_mode_and_sends_it_unconverted(era):
    server = _server()

    @server.tool()
    def get_days_left(order_number: str) -> Days:
        """Days until one order arrives."""
        return mcp_types.CallToolResult(content=[], structured_content={"days_left": "3", "extra": 1})

    @server.tool()
    def get_days_left_word(order_number: str) -> Days:
        """Days until one order arrives, as a word."""
        return mcp_types.CallToolResult(content=[], structured_content={"days_left": "three"})

    async def outcomes() -> list:
        got = []
        async with wire.connect(tap, era) as client:
            for name in ("get_days_left", "get_days_left_word"):
                try:
                    result = await client.call_tool(name, {"order_number": "ORD-1042"})
                    got.append((result.is_error, [block.text for block in result.content]))
                except RuntimeError as error:
                    got.append(str(error))
        return got

    tap = wire.Tap(server)
    with wire.sdk_warnings():
        lax_passed, refused = wire.run_sync(outcomes)
    assert lax_passed.startswith("Invalid structured content returned by tool get_days_left: '3' is not")
    assert refused == (True, ["Error executing tool get_days_left_word"])
    sent = [frame["result"] for direction, frame in tap.frames
            if direction == "S->C" and "content" in frame.get("result", {})]
    assert sent[0]["structuredContent"] == {"days_left": "3", "extra": 1}
    assert "structuredContent" not in sent[1] and sent[1]["isError"] is True


@claim("iserror-result-can-carry-structured-content")
@pytest.mark.parametrize("era", wire.ERAS)
def test_a_returned_iserror_result_carries_structured_content_and_a_raised_one_does_not(era):
    from mcp.server.mcpserver.exceptions import ToolError

    server = _server()

    @server.tool()
    def refuse(order_number: str) -> Days:
        """Refuse, with data."""
        return mcp_types.CallToolResult(content=[mcp_types.TextContent(type="text", text="no")], is_error=True,
                                        structured_content={"days_left": "not a number"})

    @server.tool()
    def fail(order_number: str) -> Days:
        """Refuse by raising."""
        raise ToolError("no")

    returned = call(server, "refuse", {"order_number": "x"}, era)
    assert returned.is_error and returned.structured_content == {"days_left": "not a number"}
    raised = call(server, "fail", {"order_number": "x"}, era)
    assert raised.is_error and raised.structured_content is None
    body, key_point = cited_paragraphs("iserror-result-can-carry-structured-content")  # the lesson, its key point 4
    assert "SDK 2.3 sends no `structuredContent` with an `isError` result it builds from a raised error" in body
    assert ("A tool that returns a `CallToolResult` with `is_error=True` can still carry `structuredContent`, and the "
            "SDK's client passes it on unchecked") in body
    assert ("SDK 2.3 sends no `structuredContent` with an `isError` result built from a raised error, but a returned "
            "`CallToolResult` may carry one") in key_point


@claim("client-fetches-tools-list-for-uncached-tool")
@pytest.mark.parametrize("era", wire.ERAS)
def test_the_client_lists_tools_only_for_an_uncached_tool_and_checks_only_a_listed_schema(era, caplog):
    from mcp.server.mcpserver.exceptions import ToolError

    server = _server()

    @server.tool()
    def ok(n: int) -> Days:
        """Fine."""
        return Days(days_left=n)

    @server.tool()
    def bad(n: int) -> Days:
        """Fails."""
        raise ToolError("no")

    paragraph, key_point = cited_paragraphs("client-fetches-tools-list-for-uncached-tool")  # the lesson, key point 3
    assert ("the client validates what it receives against a listed tool's output schema (strict `jsonschema`; a "
            "mismatch raises `RuntimeError`), but not `isError` results or tools the listing lacks") in key_point
    stated = re.search(r"\(so (\w+) per (\w+) for listed tools, but again on every such call of a tool the listing "
                       r"lacks\)", paragraph)
    assert stated and stated.groups() == ("once", "connection"), paragraph
    assert "It skips this check, and the fetch, for `isError` results" in paragraph

    async def scenario():
        tap = wire.Tap(server)
        counts = []
        for names in (["bad", "bad", "ok", "ok", "ghost", "ghost"], ["ok", "ok"]):  # two connections
            async with wire.connect(tap, era) as client:
                for name in names:
                    await client.call_tool(name, {"n": 1})
                    counts.append(wire.requests_sent(tap.frames, "tools/list"))
        return counts

    # errors fetch nothing; the first good result fetches once; an unknown tool's (error) result fetches nothing;
    # a second connection fetches once more, on its first good result
    assert wire.run_sync(scenario) == [0, 0, 1, 1, 1, 1, 2, 2]

    async def list_nothing(ctx, params):
        return mcp_types.ListToolsResult(tools=[])

    broken = {"n": "three"}  # breaks any schema that asks for an integer `n`

    async def answer_anything(ctx, params):
        return mcp_types.CallToolResult(content=[mcp_types.TextContent(type="text", text="done")],
                                        structured_content=broken)

    async def unlisted():
        from mcp.server import Server

        tap = wire.Tap(Server("unlisted", on_list_tools=list_nothing, on_call_tool=answer_anything))
        async with wire.connect(tap, era) as client:
            got = [(await client.call_tool("hidden", {})).structured_content for _ in range(3)]
        return wire.requests_sent(tap.frames, "tools/list"), got

    with caplog.at_level(logging.WARNING, logger="client"):  # mcp.client.session logs as "client"
        fetches, got = wire.run_sync(unlisted)
    assert fetches == 3  # a good result of a tool the listing lacks: a fetch every time
    # ... and no check: the result the server sent comes back unchanged, with the warning the lesson quotes
    assert "If the listing gives the tool an `outputSchema`, the client then checks the result" in paragraph
    stated = re.search(r"A tool the listing lacks, or one listed without an output schema, gets no check at all: "
                       r"SDK 2\.3 logs \"([^\"]+)\" for the first and passes the result on unchanged\.", paragraph)
    assert stated, paragraph
    assert got == [broken] * 3
    logged = [record.getMessage() for record in caplog.records if record.name == "client"]
    assert logged.count(f"Tool hidden {stated.group(1)}") == 3, logged

    # a tool listed without an output schema: listed once, never checked
    async def list_schemaless(ctx, params):
        return mcp_types.ListToolsResult(tools=[mcp_types.Tool(name="hidden", input_schema={"type": "object"})])

    async def schemaless():
        from mcp.server import Server

        tap = wire.Tap(Server("schemaless", on_list_tools=list_schemaless, on_call_tool=answer_anything))
        async with wire.connect(tap, era) as client:
            got = [(await client.call_tool("hidden", {})).structured_content for _ in range(3)]
        return wire.requests_sent(tap.frames, "tools/list"), got

    assert wire.run_sync(schemaless) == (1, [broken] * 3)


@claim("sdk-pre-parses-json-strings")
@pytest.mark.parametrize("era", wire.ERAS)
def test_a_json_string_reaches_an_object_parameter_as_an_object(era):
    server = _server()

    @server.tool()
    def first(point: Point) -> int:
        """The x of a point."""
        return point.x

    @server.tool()
    def kind(value: object = "unset") -> str:
        """The Python type the function receives."""
        return type(value).__name__

    result = call(server, "first", {"point": '{"x": 3}'}, era)
    assert not result.is_error and result.structured_content == {"result": 3}
    sent = ['{"x": 3}', "[1, 2]", "null", "true", "false", "3", "2.5", '"text"', "not json"]
    got = {text: call(server, "kind", {"value": text}, era).content[0].text for text in sent}
    assert got == {'{"x": 3}': "dict", "[1, 2]": "list", "null": "NoneType", "true": "str", "false": "str",
                   "3": "str", "2.5": "str", '"text"': "str", "not json": "str"}


@claim("sdk-client-discovers-first")
def test_the_sdk_client_asks_server_discover_first_in_the_modern_era():
    from course_lib.servers import weather

    tap = wire.Tap(weather.build_server())
    wire.run_sync(wire.list_tools, tap, wire.MODERN)
    sent = [frame.get("method") for direction, frame in tap.frames if direction == "C->S"]
    assert sent[0] == "server/discover" and "initialize" not in sent


@claim("sdk-name-rules-only-warn")
def test_sdk_drops_a_duplicate_name_keeping_the_first_and_only_warns_about_bad_names():
    server = _server()
    with wire.sdk_warnings() as warnings:
        @server.tool(name="get_forecast")
        def first() -> str:
            """First."""
            return "first"

        @server.tool(name="get_forecast")
        def second() -> str:
            """Second."""
            return "second"

        @server.tool(name="weather:forecast")
        def colon() -> str:
            """Colon."""
            return "colon"

        @server.tool(name="x" * 129)
        def long() -> str:
            """Long."""
            return "long"

    names = [tool.name for tool in wire.run_sync(wire.list_tools, server)]
    assert names == ["get_forecast", "weather:forecast", "x" * 129]
    assert call(server, "get_forecast", {}).content[0].text == "first"
    # one warning for the duplicate and one for each name outside the spec's rule, naming it
    assert [line for line in warnings if line.startswith("Tool already exists:")] == [
        "Tool already exists: get_forecast"]
    assert [line for line in warnings if line.startswith("Tool name validation warning")] == [
        'Tool name validation warning for "weather:forecast":', f'Tool name validation warning for "{"x" * 129}":']

    from mcp.server.mcpserver.tools import Tool  # given to the constructor, the last of a name stays

    with wire.sdk_warnings() as warnings:
        given = MCPServer("given", tools=[Tool.from_function(first, name="get_forecast"),
                                          Tool.from_function(second, name="get_forecast")])
    assert [tool.name for tool in wire.run_sync(wire.list_tools, given)] == ["get_forecast"]
    assert call(given, "get_forecast", {}).content[0].text == "second" and warnings


@claim("docstring-is-the-description-verbatim")
def test_the_description_is_the_raw_docstring_indented_before_python_313():
    import sys

    server = _server()

    @server.tool()
    def two_lines() -> str:
        """First line.

        Second line.
        """
        return ""

    description = wire.run_sync(wire.list_tools, server)[0].description
    assert description == two_lines.__doc__
    assert ("\n        Second line." in description) == (sys.version_info < (3, 13))


@claim("sdk-ignores-docstring-args")
def test_a_docstring_args_section_stays_in_the_description_and_describes_no_parameter():
    server = _server()

    @server.tool()
    def get_forecast(city: str, days: int = 3) -> str:
        """Daily forecast for one city.

        Args:
            city: City name, e.g. 'Des Moines'.
            days: Number of days, starting today.
        """
        return city

    (sentence,) = cited_paragraphs("sdk-ignores-docstring-args")
    assert "**not** parsed" in sentence and "Field(description=...)" in sentence, sentence
    (tool,) = wire.run_sync(wire.list_tools, server)
    assert tool.description == get_forecast.__doc__  # the Args: lines stay in the description
    properties = wire.dump(tool)["inputSchema"]["properties"]
    assert [name for name, schema in properties.items() if "description" in schema] == []


class Options(BaseModel):
    """A nested argument object that forbids keys it does not name."""

    model_config = ConfigDict(extra="forbid")
    dry_run: bool = False


@claim("mcpserver-argument-model-ignores-extras")
def test_mcpserver_ignores_extra_arguments_has_no_switch_and_honours_a_nested_forbid():
    import inspect

    server = _server()

    @server.tool()
    def cancel(order_number: str, options: Options | None = None) -> str:
        """Cancel one order."""
        return f"{order_number} dry_run={bool(options and options.dry_run)}"

    top = call(server, "cancel", {"order_number": "A", "dryRun": True})
    assert not top.is_error and top.structured_content == {"result": "A dry_run=False"}
    nested = call(server, "cancel", {"order_number": "A", "options": {"dryRun": True}})
    assert nested.is_error and "Extra inputs are not permitted" in nested.content[0].text
    schema = wire.dump(wire.run_sync(wire.list_tools, server)[0])["inputSchema"]
    assert "additionalProperties" not in schema
    knobs = {name for method in (MCPServer.__init__, MCPServer.tool, MCPServer.add_tool)
             for name in inspect.signature(method).parameters}
    assert not {name for name in knobs if any(word in name for word in ("extra", "forbid", "strict"))}
    (sentence,) = cited_paragraphs("mcpserver-argument-model-ignores-extras")
    assert "no switch to forbid them" in sentence and 'extra="forbid"' in sentence, sentence


@claim("debug-true-keeps-the-bare-text")
def test_a_plain_exception_reaches_the_client_as_the_bare_text_even_with_debug_true():
    (sentence,) = cited_paragraphs("debug-true-keeps-the-bare-text")
    assert '"Error executing tool get_order", even with `debug=True`' in sentence, sentence
    for debug in (False, True):
        server = MCPServer("claims", log_level="CRITICAL", debug=debug)

        @server.tool()
        def get_order(order_number: str) -> str:
            """Fails like a backend."""
            raise ValueError("connection to db-eu-1.corp.internal refused")

        result = call(server, "get_order", {"order_number": "ORD-1"})
        assert result.is_error and [block.text for block in result.content] == ["Error executing tool get_order"]


class Row(BaseModel):
    number: str


@claim("list-return-one-text-block-per-item")
def test_a_list_return_gives_one_text_block_per_item_and_a_model_one_serialized_block():
    server = _server()

    @server.tool()
    def as_list() -> list[Row]:
        """Rows."""
        return [Row(number="A"), Row(number="B")]

    @server.tool()
    def as_model() -> Row:
        """One row."""
        return Row(number="A")

    listed = call(server, "as_list", {})
    assert [block.text for block in listed.content] == ['{\n  "number": "A"\n}', '{\n  "number": "B"\n}']
    assert listed.structured_content == {"result": [{"number": "A"}, {"number": "B"}]}
    single = call(server, "as_model", {})
    assert len(single.content) == 1 and single.structured_content == {"number": "A"}


@claim("wrapped-return-text-is-the-bare-value")
def test_a_wrapped_return_sends_its_bare_value_as_text_not_the_serialized_structured_content():
    import json

    server = _server()

    @server.tool()
    def as_text() -> str:
        """A string."""
        return "ORD-1042 arrives on 2026-10-05"

    @server.tool()
    def as_int() -> int:
        """A number."""
        return 3

    (sentence,) = cited_paragraphs("wrapped-return-text-is-the-bare-value")
    for name, value in (("as_text", "ORD-1042 arrives on 2026-10-05"), ("as_int", 3)):
        result = call(server, name, {})
        (block,) = result.content
        wrapped = {"result": value}
        assert result.structured_content == wrapped
        assert block.text == str(value), (name, block.text)  # the bare value...
        assert block.text not in (json.dumps(wrapped), json.dumps(wrapped, indent=2))  # ...not the wrapping
        assert f"`{block.text}`" in sentence, (block.text, sentence)
        assert f"`{json.dumps(wrapped)}`" in sentence, (wrapped, sentence)


@claim("structured-from-validated-text-from-raw")
def test_structured_content_drops_extra_keys_but_the_text_keeps_the_raw_value():
    import json

    server = _server()

    @server.tool()
    def leaky() -> Row:
        """A row built from a bigger record."""
        return {"number": "A", "payment_token": "tok_secret"}

    result = call(server, "leaky", {})
    assert result.structured_content == {"number": "A"}
    assert json.loads(result.content[0].text) == {"number": "A", "payment_token": "tok_secret"}


@claim("which-exception-messages-reach-the-client")
@pytest.mark.parametrize("era", wire.ERAS)
def test_toolerror_and_resourceerror_messages_reach_the_client_and_others_do_not(era):
    from mcp import MCPError
    from mcp.server.mcpserver.exceptions import ResourceError, ToolError

    server = _server()
    raised = {"tool_error": ToolError("own words"), "resource_error": ResourceError("own words"),
              "value_error": ValueError("secret words")}
    def failing(error: Exception):
        def fail() -> str:
            raise error
        return fail

    for name, error in raised.items():
        server.add_tool(failing(error), name=name, description="Fails.")

    @server.tool()
    def mcp_error() -> str:
        """Fails with a protocol error."""
        raise MCPError(-32602, "bad params", {"why": "test"})

    texts = {name: call(server, name, {}, era) for name in raised}
    assert all(result.is_error for result in texts.values())
    assert texts["tool_error"].content[0].text.endswith("own words")
    assert texts["resource_error"].content[0].text.endswith("own words")
    assert texts["value_error"].content[0].text == "Error executing tool value_error"

    async def protocol_error():
        async with wire.connect(server, era) as client:
            try:
                await client.call_tool("mcp_error", {})
            except MCPError as error:
                return error.error
        return None

    (paragraph,) = cited_paragraphs("which-exception-messages-reach-the-client")
    assert "A `ToolError`'s message and a `ResourceError`'s reach the client as tool execution errors" in paragraph
    assert 'Any other exception becomes "Error executing tool …" and nothing more' in paragraph
    carried = re.search(r"An `MCPError` raised in a tool becomes a protocol error that carries its (\w+), (\w+) and "
                        r"(\w+), which a client MAY pass on\.", paragraph)
    assert carried, paragraph
    got = wire.run_sync(protocol_error)
    assert {field: getattr(got, field) for field in carried.groups()} == {
        "code": -32602, "message": "bad params", "data": {"why": "test"}}


@claim("mcpserver-unknown-tool-is-an-error-result")
@pytest.mark.parametrize("era", wire.ERAS)
def test_mcpserver_answers_an_unknown_tool_with_an_iserror_result(era):
    result = call(_server(), "invalid_tool_name", {}, era)
    assert result.is_error and "Unknown tool: invalid_tool_name" in result.content[0].text


@claim("unknown-arguments-are-dropped")
@pytest.mark.parametrize("era", wire.ERAS)
def test_argument_names_a_tool_does_not_take_are_dropped_and_the_schema_allows_them(era):
    server = _server()

    @server.tool()
    def cancel(dry_run: bool = False) -> str:
        """Cancel, or only check."""
        return f"dry_run={dry_run}"

    assert call(server, "cancel", {"dryRun": True}, era).content[0].text == "dry_run=False"
    schema = wire.dump(wire.run_sync(wire.list_tools, server)[0])["inputSchema"]
    assert schema.get("additionalProperties") is not False


@claim("pydantic-text-carries-a-versioned-link-and-the-input")
def test_the_validation_text_links_the_installed_pydantic_version_and_echoes_the_input():
    import pydantic

    server = _server()

    @server.tool()
    def take(quantity: int) -> int:
        """Echo."""
        return quantity

    text = call(server, "take", {"quantity": "many"}).content[0].text
    major_minor = ".".join(pydantic.VERSION.split(".")[:2])
    assert f"errors.pydantic.dev/{major_minor}/" in text and "input_value='many'" in text


@claim("client-modes-and-eras")
def test_client_modes_speak_2026_07_28_and_the_2025_11_25_handshake():
    from mcp import Client

    from course_lib.servers import weather

    async def eras():
        server = _server()
        async with Client(weather.build_server()) as client:  # lesson 00's server, as its cell prints
            found = [client.protocol_version]
        for mode in ("auto", "legacy"):
            async with Client(server, mode=mode) as client:
                found.append(client.protocol_version)
        tap = wire.Tap(server)
        async with Client(tap, mode="legacy"):
            pass
        opening = next(frame for direction, frame in tap.frames if direction == "C->S")
        return found, opening["method"]

    assert wire.run_sync(eras) == (["2026-07-28", "2026-07-28", "2025-11-25"], "initialize")
    import inspect

    import mcp.client.client as sdk_client
    from mcp_types.version import KNOWN_PROTOCOL_VERSIONS

    (paragraph,) = cited_paragraphs("client-modes-and-eras")
    documented = re.search(r'it falls back to the handshake, as SDK 2.3 documents \("([^"]+)"; documented, not '
                           r'run in this course\)', paragraph).group(1)
    assert documented in " ".join(inspect.getsource(sdk_client).split())  # ConnectMode's docstring
    stated = re.search(r'mode="legacy"\)` speaks the handshake era, (\S+), the last version released before (\S+) ',
                       paragraph)
    assert stated, paragraph
    legacy, modern = stated.groups()
    assert (legacy, modern) == ("2025-11-25", "2026-07-28")
    assert KNOWN_PROTOCOL_VERSIONS.index(modern) - 1 == KNOWN_PROTOCOL_VERSIONS.index(legacy)


@claim("non-object-return-wrapped-in-result")
@pytest.mark.parametrize("era", wire.ERAS)
def test_a_non_object_return_gets_a_result_schema_and_is_wrapped_in_both_eras(era):
    server = _server()

    @server.tool()
    def word() -> str:
        """A word."""
        return "around 12"

    @server.tool()
    def numbers() -> list[int]:
        """Numbers."""
        return [1, 2]

    @server.tool()
    def count() -> int:
        """A count."""
        return 3

    for tool in wire.run_sync(wire.list_tools, server):
        schema = wire.dump(tool)["outputSchema"]
        assert list(schema["properties"]) == ["result"] and schema["required"] == ["result"], schema
    assert call(server, "word", {}, era).structured_content == {"result": "around 12"}

    # the annotations the sentence lists, each on a tool of its own: wrapped, or (after "not") no schema at all
    from typing import Any

    (paragraph,) = cited_paragraphs("non-object-return-wrapped-in-result")
    listed = re.search(r"for a return annotation of a non-object type \(([^;]+); not ([^,]+), which get no output schema",
                       paragraph)
    assert listed, paragraph
    types = {"str": str, "int": int, "bool": bool, "list[...]": list[int], "Any": Any, "dict": dict}
    wrapped = re.findall(r"`([^`]+)`", listed.group(1))
    unwrapped = re.findall(r"`([^`]+)`", listed.group(2))
    assert wrapped == ["str", "int", "bool", "list[...]"] and unwrapped == ["Any", "dict"], (wrapped, unwrapped)
    named = _server()
    for index, label in enumerate(wrapped + unwrapped):
        def body():
            return None
        body.__name__, body.__doc__, body.__annotations__ = f"t{index}", label, {"return": types[label]}
        named.tool()(body)
    schemas = {tool.description: wire.dump(tool).get("outputSchema") for tool in wire.run_sync(wire.list_tools, named)}
    assert all(list(schemas[label]["properties"]) == ["result"] for label in wrapped), schemas
    assert all(schemas[label] is None for label in unwrapped), schemas
    assert call(server, "numbers", {}, era).structured_content == {"result": [1, 2]}
    assert call(server, "count", {}, era).structured_content == {"result": 3}


class Eta(BaseModel):
    order_number: str
    expected_delivery: datetime.date


@claim("sdk-derives-output-schema-from-annotation")
def test_the_output_schema_is_the_return_annotations_json_schema_with_nothing_written_by_hand():
    (sentence,) = cited_paragraphs("sdk-derives-output-schema-from-annotation")
    assert "the SDK derives it from the return annotation" in sentence, sentence
    server = _server()

    @server.tool()
    def get_eta(order_number: str) -> Eta:
        """Expected delivery of one order."""
        return Eta(order_number=order_number, expected_delivery=datetime.date(2026, 10, 5))

    (tool,) = wire.dump(wire.run_sync(wire.list_tools, server))
    assert tool["outputSchema"] == Eta.model_json_schema()


@claim("sdk-validates-returns-before-sending")
@pytest.mark.parametrize("era", wire.ERAS)
def test_a_return_that_breaks_the_output_model_never_reaches_the_client(era):
    (sentence,) = cited_paragraphs("sdk-validates-returns-before-sending")
    assert "The SDK validates every return value against the tool's output model **before** sending it" in sentence
    server = MCPServer("claims", log_level="CRITICAL")

    @server.tool()
    def get_eta(order_number: str) -> Eta:
        """Expected delivery of one order."""
        return {"order_number": order_number, "expected_delivery": "next week, probably"}

    result = call(server, "get_eta", {"order_number": "ORD-1043"}, era)
    assert result.is_error and result.structured_content is None
    assert [block.text for block in result.content] == ["Error executing tool get_eta"]


@claim("sdk-validates-arguments-before-the-body")
@pytest.mark.parametrize("era", wire.ERAS)
def test_bad_arguments_are_refused_before_the_tool_body_runs(era):
    (sentence,) = cited_paragraphs("sdk-validates-arguments-before-the-body")
    assert "The SDK validates arguments before it calls your function" in sentence, sentence
    server, ran = _server(), []

    @server.tool()
    def get_order(order_number: str, limit: int = 5) -> str:
        """One order."""
        ran.append(order_number)
        return order_number

    refused = call(server, "get_order", {"order_number": "ORD-1", "limit": "many"}, era)
    assert refused.is_error and ran == []
    assert not call(server, "get_order", {"order_number": "ORD-1"}, era).is_error and ran == ["ORD-1"]


@claim("sdk-injects-context-outside-the-schema")
def test_strict_int_refuses_3_0_and_the_context_parameter_is_injected_and_never_in_the_schema():
    (sentence,) = cited_paragraphs("sdk-injects-context-outside-the-schema")
    words = sentence.replace("`", "")
    assert "Strict refuses even 3.0 for an integer" in words
    assert "The ctx: Context parameter is injected by the SDK and never appears in the input schema" in words
    server = _server()

    @server.tool()
    def count(n: Annotated[int, Field(strict=True)], ctx: Context) -> str:
        """Echo n, and whether a context came."""
        return f"{n} {isinstance(ctx, Context)}"

    (tool,) = wire.dump(wire.run_sync(wire.list_tools, server))
    assert set(tool["inputSchema"]["properties"]) == {"n"} and tool["inputSchema"]["required"] == ["n"]
    assert call(server, "count", {"n": 3}).structured_content == {"result": "3 True"}
    assert call(server, "count", {"n": 3.0}).is_error


@claim("sdk-stdio-drops-unreadable-lines")
@pytest.mark.parametrize("era", wire.ERAS)
def test_the_stdio_transport_answers_neither_cut_off_json_nor_a_line_without_a_method(era):
    """Lesson 03's appendix, run as the lesson runs it: a child process serving the order desk over the SDK's stdio
    transport gets a session's opening request (id 1), a cut-off line (id 2), a line with no method (id 3) and a
    valid `tools/list` (id 4), and answers 1 and 4 only, with results, then exits."""
    import json

    from course_lib import protocol

    (sentence,) = cited_paragraphs("sdk-stdio-drops-unreadable-lines")
    assert ("said nothing at all about the two broken lines: SDK 2.3's stdio transport drops a line it cannot read as "
            "a JSON-RPC message") in sentence, sentence
    lines = [json.dumps(frame) for frame in protocol.opening_frames(era, request_id=1)]
    lines += ['{"jsonrpc": "2.0", "id": 2, "method": "tools/list"', '{"jsonrpc": "2.0", "id": 3}',
              json.dumps(protocol.request_frame("tools/list", era=era, request_id=4))]
    replies = wire.run_sync(protocol.stdio_exchange, "order-desk", lines)
    assert [(reply["id"], "result" in reply) for reply in replies] == [(1, True), (4, True)], replies


@claim("sdk-http-answers-malformed-bodies")
def test_over_http_broken_json_is_a_parse_error_and_a_body_without_a_method_differs_by_era():
    """Lesson 03's appendix over streamable HTTP, as the lesson runs it: both bad bodies get HTTP 400 and `id` null;
    cut-off JSON is -32700 in both eras; a body with no method is -32600 in 2026-07-28 and -32602 with pydantic's
    validation text in 2025-11-25."""
    from course_lib import protocol, serving
    from course_lib.servers import failures

    (sentence,) = cited_paragraphs("sdk-http-answers-malformed-bodies")
    words = sentence.replace("`", "")
    assert "both bad bodies get status 400 and a JSON-RPC error whose id is null" in words
    assert "Broken JSON gets -32700 Parse error in both eras" in words
    assert "A body with no method gets -32600 Invalid Request in 2026-07-28" in words
    assert "in the 2025-11-25 era SDK 2.3 answers -32602 with pydantic's validation text instead" in words

    async def answers():
        got = {}
        async with serving.serve_http(failures.build_server()) as url:
            for era in wire.ERAS:
                for label, body in (("cut-off", '{"jsonrpc": "2.0", "id": 2, "method": "tools/list"'),
                                    ("no method", '{"jsonrpc": "2.0", "id": 3}')):
                    status, reply = await protocol.post_raw(url, body, era)
                    got[era, label] = (status, reply["id"], reply["error"]["code"], reply["error"]["message"])
        return got

    got = wire.run_sync(answers)
    assert {key: value[:3] for key, value in got.items()} == {
        (wire.MODERN, "cut-off"): (400, None, -32700), (wire.MODERN, "no method"): (400, None, -32600),
        (wire.HANDSHAKE, "cut-off"): (400, None, -32700), (wire.HANDSHAKE, "no method"): (400, None, -32602)}
    assert "validation error" in got[wire.HANDSHAKE, "no method"][3]


@claim("result-fields-per-era")
def test_a_2026_07_28_result_carries_result_type_and_server_info_and_a_2025_11_25_one_neither():
    """Lesson 03's key point 1: the two eras' result frames as SDK 2.3 sends them (a tool error and a success),
    and the vendored schema.ts of each era: `_meta` on every Result in 2025-11-25, `resultType` required and
    the serverInfo key in 2026-07-28."""
    from mcp.server.mcpserver.exceptions import ToolError

    from claims_ledger import HERE

    (paragraph,) = cited_paragraphs("result-fields-per-era")
    flat = re.sub(r"<!--.*?-->", "", paragraph)
    stated = re.search(r"must carry `(\w+)` .*? should carry, in its `(_meta)` \(a field of every result in "
                       r"(\S+) already\), `([\w./]+)`", flat)
    assert stated, flat
    required, meta, older, key = stated.groups()
    assert "SDK 2.3 sends both in 2026-07-28 and neither in 2025-11-25" in flat
    server = MCPServer("eras")

    @server.tool()
    def fail() -> str:
        """Fails."""
        raise ToolError("no")

    @server.tool()
    def work() -> str:
        """Works."""
        return "ok"

    async def results(era) -> list[dict]:
        tap = wire.Tap(server)
        async with wire.connect(tap, era) as client:
            await client.call_tool("fail", {})
            await client.call_tool("work", {})
        return [frame["result"] for direction, frame in tap.frames
                if direction == "S->C" and "content" in frame.get("result", {})]

    modern, handshake = (wire.run_sync(results, era) for era in ("2026-07-28", older))
    assert [r.get("isError", False) for r in modern] == [r.get("isError", False) for r in handshake] == [True, False]
    for result in modern:
        assert required in result and key in result[meta]
    for result in handshake:
        assert required not in result and meta not in result
    schema = {era: (HERE / "spec" / era / "schema" / era / "schema.ts").read_text(encoding="utf-8")
              for era in ("2026-07-28", older)}
    old_result = re.search(r"export interface Result \{(.*?)\n\}", schema[older], re.S).group(1)
    assert f"{meta}?: {{ [key: string]: unknown }};" in old_result and required not in old_result
    new_result = re.search(r"export interface Result \{(.*?)\n\}", schema["2026-07-28"], re.S).group(1)
    assert f"{meta}?: ResultMetaObject;" in new_result and f"{required}: ResultType;" in new_result
    assert f'"{key}"?: Implementation;' in schema["2026-07-28"]


class _TypingPlace(typing.TypedDict):
    name: str


class _TypingTracking(typing.TypedDict):
    number: str
    place: _TypingPlace


class _ExtensionsPlace(typing_extensions.TypedDict):
    name: str


class _ExtensionsTracking(typing_extensions.TypedDict):
    number: str
    place: _ExtensionsPlace


@claim("nested-typing-typeddict-no-schema")
def test_a_nested_typing_typeddict_gives_no_output_schema_on_311_and_typing_extensions_does():
    schemas = {}
    for name, tracking in (("typing", _TypingTracking), ("typing_extensions", _ExtensionsTracking)):
        server = _server()

        def track_order(order_number: str):
            """Track one order."""
            return {"number": order_number, "place": {"name": "Oslo"}}

        track_order.__annotations__ = {"order_number": str, "return": tracking}
        server.tool()(track_order)
        schemas[name] = wire.run_sync(wire.list_tools, server)[0].output_schema
    assert set(schemas["typing_extensions"]["properties"]) == {"number", "place"}
    if sys.version_info < (3, 12):
        assert schemas["typing"] is None
        with pytest.raises(pydantic.errors.PydanticUserError, match="typing_extensions.TypedDict"):
            pydantic.TypeAdapter(_TypingTracking)
    assert "on Python 3.11, import `TypedDict` from `typing_extensions`" in cited_paragraphs(
        "nested-typing-typeddict-no-schema")[0]
