"""Claims lessons 00-04 make about the course's servers, the tokenizer and the provider SDKs' request types."""

from __future__ import annotations

import re

import pytest

from claims_ledger import cited_paragraphs, claim
from course_lib import tokens, wire


@claim("provider-tool-slots")
def test_provider_request_types_have_slots_for_name_description_and_input_schema_only():
    import inspect
    from importlib.metadata import version

    import anthropic.types as anthropic
    import openai.types.shared_params as openai
    from anthropic.types import message_create_params
    from openai.types.chat import completion_create_params

    anthropic_keys = set(anthropic.ToolParam.__annotations__)
    openai_keys = set(openai.FunctionDefinition.__annotations__)
    assert {"name", "description", "input_schema", "defer_loading"} <= anthropic_keys
    assert {"name", "description", "parameters"} <= openai_keys
    for keys in (anthropic_keys, openai_keys):
        assert not keys & {"title", "output_schema", "outputSchema", "annotations"}
    # the definitions go with every request: `tools` is a field of the request itself
    assert "tools" in message_create_params.MessageCreateParamsBase.__annotations__
    assert "tools" in completion_create_params.CompletionCreateParamsBase.__annotations__
    paragraphs = cited_paragraphs("provider-tool-slots")
    assert "`MessageCreateParams` in `anthropic`" in paragraphs[0] and "`CompletionCreateParams` in `openai`" in paragraphs[0]
    for package in ("anthropic", "openai"):  # every version the prose names is the one tested, and it names one
        named = {found for paragraph in paragraphs for found in re.findall(rf"`{package}`(?: SDK's `\w+`,)? (\d+\.\d+\.\d+)", paragraph)}
        assert named == {version(package)}, f"the lesson names {package} {named}; {version(package)} is here"
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
    (paragraph,) = cited_paragraphs("desk-messages-name-only-its-tools")
    assert "is word for word the answer for a missing order, apart from the order number it repeats" in paragraph
    for missing, foreign in ((messages[0], messages[1]), (messages[3], messages[4])):  # get_order, cancel_order
        assert "ORD-1050" in foreign and foreign != missing and foreign.replace("ORD-1050", "ORD-9999") == missing


@claim("orders-foreign-order-answers-as-missing")
@pytest.mark.parametrize("era", wire.ERAS)
def test_lesson_02s_order_service_answers_another_customers_order_as_a_missing_one(era):
    from course_lib.servers import orders

    async def answers():
        async with wire.connect(orders.build_server(), era) as client:
            return [await client.call_tool("get_order", {"order_number": number}) for number in ("ORD-9999", "ORD-1050")]

    (missing, foreign) = wire.run_sync(answers)
    (paragraph,) = cited_paragraphs("orders-foreign-order-answers-as-missing")
    assert "answers word for word as for a missing order, apart from the order number it repeats" in paragraph
    assert missing.is_error and foreign.is_error
    assert foreign.content[0].text != missing.content[0].text
    assert foreign.content[0].text.replace("ORD-1050", "ORD-9999") == missing.content[0].text


@claim("openai-function-name-rule")
def test_the_openai_sdk_states_the_function_name_rule_lesson_01_quotes():
    import inspect

    import openai.types.shared_params.function_definition as shared
    source = " ".join(inspect.getsource(shared).split())
    (paragraph,) = cited_paragraphs("openai-function-name-rule")
    quoted = re.search(r'"([^"]+)"', paragraph).group(1)
    assert " ".join(quoted.split()) in source
    from importlib.metadata import version

    named = re.search(r"`FunctionDefinition.name` \((\d+\.\d+\.\d+), checked", paragraph)
    assert named and named.group(1) == version("openai"), (named, version("openai"))


@claim("weather-today-is-fixed")
def test_the_weather_servers_today_is_the_fixed_date_lesson_00_states():
    from datetime import date, timedelta

    from course_lib.servers import weather

    (sentence,) = cited_paragraphs("weather-today-is-fixed")
    stated = set(re.findall(r"\d{4}-\d{2}-\d{2}", sentence))
    assert len(stated) == 1, f"the sentence should name one fixed date: {sentence}"
    (today,) = map(date.fromisoformat, stated)

    async def forecast_dates():
        async with wire.connect(weather.build_server()) as client:
            result = await client.call_tool("get_daily_forecast", {"city": "Oslo", "days": weather.MAX_DAYS})
        return [day["date"] for day in result.structured_content["days"]]

    expected = [(today + timedelta(days=n)).isoformat() for n in range(weather.MAX_DAYS)]
    assert wire.run_sync(forecast_dates) == expected
    assert weather.FORECAST_START == today and today != date.today()  # a constant, not the clock


@claim("uuid-costs-several-times-the-tokens")
def test_the_backends_uuid_costs_several_times_the_order_numbers_tokens():
    """Lesson 02 c32's table, recomputed with tiktoken: the uuid5 the lesson builds for ORD-1042 against the number."""
    import uuid

    internal = str(uuid.uuid5(uuid.NAMESPACE_URL, "orders/ORD-1042"))
    (sentence,) = cited_paragraphs("uuid-costs-several-times-the-tokens")
    stated = re.search(r"A (\d+)-character UUID costs several times the tokens \((\d+) against (\d+) in the table",
                       sentence)
    assert stated, sentence
    measured = (len(internal), tokens.count(internal), tokens.count("ORD-1042"))
    assert tuple(map(int, stated.groups())) == measured
    assert measured[1] >= 3 * measured[2]  # "several times"
