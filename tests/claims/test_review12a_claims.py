"""Claims fixed after review claims12a (issue 28): each test runs what its sentence describes and reads the words
or figures it asserts from the lesson or exercise (`cited_paragraphs`)."""

from __future__ import annotations

import json
import re
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from pydantic import Field
import pytest

from claims_ledger import cited_paragraphs, claim
from course_lib import wire


def _call(server, name: str, arguments: dict, era: str):
    return wire.run_sync(wire.call_tool, server, name, arguments, era)


@claim("lax-bool-takes-yes-and-1")
@pytest.mark.parametrize("era", wire.ERAS)
def test_a_lax_bool_takes_the_values_exercise_3_4_names_and_unknown_names_are_dropped(era):
    """Exercise 3.4: "The SDK drops unknown argument names and turns `"yes"` or `1` into `True` before your
    function runs." Both values are read from the sentence and sent, with an unknown name beside them."""
    (paragraph,) = cited_paragraphs("lax-bool-takes-yes-and-1")
    stated = re.search(r"The SDK drops unknown argument names and turns `([^`]+)` or `([^`]+)` into `True` before "
                       r"your function runs\.", paragraph)
    assert stated, paragraph
    server = MCPServer("lax-bool", log_level="WARNING")

    @server.tool()
    def cancel(dry_run: bool = False) -> str:
        """Cancel, or only check."""
        return repr(dry_run)

    for sent in map(json.loads, stated.groups()):
        result = _call(server, "cancel", {"dry_run": sent, "force": True}, era)
        assert not result.is_error and result.content[0].text == "True", (sent, result)


@claim("request-params-are-a-plain-dict")
@pytest.mark.parametrize("era", wire.ERAS)
def test_a_tools_request_params_are_a_plain_dict_holding_the_arguments_as_sent(era):
    """Lesson 03 c17: `wire.raw_arguments(ctx)` is `ctx.request_context.params.get("arguments")`, and `params` is
    a plain dict in SDK 2.3 (in both eras), so the names the SDK drops are still there."""
    (paragraph,) = cited_paragraphs("request-params-are-a-plain-dict")
    stated = re.match(r"\(one line of SDK: `ctx\.request_context\.(\w+)\.get\(\"arguments\"\)`; `(\w+)` is a plain "
                      r"(\w+) in SDK 2\.3\)", paragraph)
    assert stated and stated.group(1) == stated.group(2), paragraph
    server = MCPServer("raw", log_level="WARNING")
    seen = []

    @server.tool()
    def echo(city: str, ctx: Context) -> str:
        """Record what the request carried."""
        params = getattr(ctx.request_context, stated.group(1))
        seen.append((type(params).__name__, params.get("arguments"), wire.raw_arguments(ctx)))
        return city

    sent = {"city": "Oslo", "citty": "x"}
    assert not _call(server, "echo", sent, era).is_error
    assert seen == [(stated.group(3), sent, sent)]


@claim("strict-scalars-take-their-json-type")
@pytest.mark.parametrize("era", wire.ERAS)
def test_strict_scalars_take_their_own_json_type_and_a_strict_float_takes_an_integer(era):
    """Lesson 03 c17: strict `int`, `float`, `bool` and `str` each take a JSON value of their type (it arrives
    as one already), and a strict `float` also takes a JSON integer, as `3.0`; a strict `int` still refuses 3.0."""
    (paragraph,) = cited_paragraphs("strict-scalars-take-their-json-type")
    stated = re.match(r"Strict works this way for `(\w+)`, `(\w+)`, `(\w+)` and `(\w+)`: a JSON value arrives as one "
                      r"of them already \(a strict `float` also takes a JSON integer, as `([^`]+)`\)\.", paragraph)
    assert stated, paragraph
    server = MCPServer("strict", log_level="WARNING")
    examples = {"int": 3, "float": 2.5, "bool": True, "str": "three"}
    for kind in stated.groups()[:4]:
        python = {"int": int, "float": float, "bool": bool, "str": str}[kind]

        def echo(value):
            return repr(value)

        echo.__annotations__ = {"value": Annotated[python, Field(strict=True)], "return": str}  # no string to resolve

        server.add_tool(echo, name=f"strict_{kind}", description=f"Echo a strict {kind}.")
        result = _call(server, f"strict_{kind}", {"value": examples[kind]}, era)
        assert not result.is_error and result.content[0].text == repr(examples[kind]), (kind, result)
        assert _call(server, f"strict_{kind}", {"value": None}, era).is_error, kind  # and refuses another type
    as_float = _call(server, "strict_float", {"value": 3}, era)
    assert not as_float.is_error and as_float.content[0].text == stated.group(5)
    assert _call(server, "strict_int", {"value": 3.0}, era).is_error
