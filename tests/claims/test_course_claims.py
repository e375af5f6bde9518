"""Claims lessons 00-04 make about the course's servers, the tokenizer and the provider SDKs' request types."""

from __future__ import annotations

import re

import pytest

from claims_ledger import cited_paragraphs, claim
from course_lib import tokens, wire


@claim("provider-tool-slots")
def test_provider_request_types_have_slots_for_name_description_and_input_schema_only():
    anthropic = pytest.importorskip("anthropic.types")
    openai = pytest.importorskip("openai.types.shared_params")
    anthropic_keys = set(anthropic.ToolParam.__annotations__)
    openai_keys = set(openai.FunctionDefinition.__annotations__)
    assert {"name", "description", "input_schema", "defer_loading"} <= anthropic_keys
    assert {"name", "description", "parameters"} <= openai_keys
    for keys in (anthropic_keys, openai_keys):
        assert not keys & {"title", "output_schema", "outputSchema", "annotations"}
    import inspect

    deferred = " ".join(inspect.getsource(anthropic.tool_param).split())
    assert "If true, tool will not be included in initial system prompt. Only loaded when returned via " \
           "tool_reference from tool search." in deferred


@claim("weather-output-schema-share")
def test_the_rewrites_output_schema_share_is_what_lesson_00_says():
    from course_lib.servers import weather

    tool = {t.name: t for t in wire.run_sync(wire.list_tools, weather.build_server())}["get_daily_forecast"]
    schema, whole = tokens.count(wire.dump(tool)["outputSchema"]), tokens.count(tool)
    (sentence,) = cited_paragraphs("weather-output-schema-share")
    stated = re.search(r"(\d+) of the rewrite's (\d+) tokens \((\d+) %\)", sentence)
    assert stated, f"the sentence no longer states the share as 'N of the rewrite's M tokens (P %)': {sentence}"
    assert tuple(map(int, stated.groups())) == (schema, whole, round(100 * schema / whole))


@claim("desk-messages-name-only-its-tools")
@pytest.mark.parametrize("era", wire.ERAS)
def test_the_order_desk_messages_send_the_model_to_no_tool_it_lacks(era):
    from course_lib.servers import failures, orders

    async def texts():
        server = failures.build_server()
        names = {tool.name for tool in await wire.list_tools(server, era)}
        async with wire.connect(server, era) as client:
            results = [await client.call_tool(tool, {"order_number": number}) for tool in ("get_order", "cancel_order")
                       for number in ("ORD-9999", "ORD-1050", orders.ARCHIVED)]
        return names, [result.content[0].text for result in results]

    names, messages = wire.run_sync(texts)
    assert names == {"get_order", "cancel_order"}
    for text in messages:
        named = set(re.findall(r"\b[a-z]+_[a-z_]+\b", text)) - {"order_number"}
        assert named <= names, text
    assert "Check the number with the person" in messages[0]


@claim("openai-function-name-rule")
def test_the_openai_sdk_states_the_function_name_rule_lesson_01_quotes():
    import inspect

    shared = pytest.importorskip("openai.types.shared_params.function_definition")
    source = " ".join(inspect.getsource(shared).split())
    (paragraph,) = cited_paragraphs("openai-function-name-rule")
    quoted = re.search(r'"([^"]+)"', paragraph).group(1)
    assert " ".join(quoted.split()) in source
