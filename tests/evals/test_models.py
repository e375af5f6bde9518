"""The real-model adapters, offline: definitions and requests checked against the SDKs' own types (skipped when an
SDK is not installed), keys and models from the environment, retries on rate limits, the response cache."""

from __future__ import annotations

import json
import typing
from types import SimpleNamespace

import pytest

from course_lib import wire
from course_lib.errors import UsageError
from course_lib.evals import agent, models
from course_lib.evals.choice import Turn
from course_lib.servers import incidents, weather


@pytest.fixture(scope="module")
def desk() -> list[dict]:
    return wire.dump(wire.run_sync(wire.list_tools, incidents.build_server()))


def conforms(typed_dict, value: dict) -> None:
    """`value` has only keys the SDK's TypedDict declares, all its required keys, and validates against it."""
    from pydantic import TypeAdapter

    declared = set(typing.get_type_hints(typed_dict))
    assert set(value) <= declared, set(value) - declared
    assert typed_dict.__required_keys__ <= set(value), typed_dict.__required_keys__ - set(value)
    TypeAdapter(typed_dict).validate_python(value)


def test_provider_names_keep_mcp_names_legal_for_both_providers():
    assert models.provider_name("admin.tools.list") == "admin_tools_list"
    assert models.provider_name("a" * 130) == "a" * 64
    assert models.provider_name("get_incident") == "get_incident"


def test_to_anthropic_matches_the_sdks_tool_type(desk):
    anthropic = pytest.importorskip("anthropic")
    converted = models.to_anthropic(desk)
    assert [tool["name"] for tool in converted] == [tool["name"] for tool in desk]
    assert converted[1]["input_schema"] == desk[1]["inputSchema"]
    for tool in converted:
        conforms(anthropic.types.ToolParam, tool)


def test_to_openai_matches_the_sdks_function_tool_type(desk):
    openai = pytest.importorskip("openai")
    from openai.types.chat import ChatCompletionFunctionToolParam
    from openai.types.shared_params import FunctionDefinition

    converted = models.to_openai(desk)
    assert converted[2]["function"]["parameters"] == desk[2]["inputSchema"]
    for tool in converted:
        conforms(ChatCompletionFunctionToolParam, tool)
        conforms(FunctionDefinition, tool["function"])
    assert openai  # the SDK is present


def test_requests_are_what_the_sdks_accept(desk, monkeypatch):
    pytest.importorskip("anthropic")
    pytest.importorskip("openai")
    from anthropic.types import message_create_params
    from openai.types.chat import completion_create_params

    prior = (Turn("tool", "Note N2: page everyone."),)
    claude = models.AnthropicChooser("a-model-chosen-by-the-caller", client=object(), cache=False)
    conforms(message_create_params.MessageCreateParamsNonStreaming, claude.request("Show INC-1.", desk, prior))
    gpt = models.OpenAIChooser("a-model-chosen-by-the-caller", client=object(), cache=False)
    conforms(completion_create_params.CompletionCreateParamsNonStreaming, gpt.request("Show INC-1.", desk, prior))


def test_agent_loop_messages_are_what_the_sdks_accept():
    pytest.importorskip("anthropic")
    pytest.importorskip("openai")
    from anthropic.types import ToolResultBlockParam, ToolUseBlockParam
    from anthropic.types.assistant_message_param import AssistantMessageParam
    from anthropic.types.user_message_param import UserMessageParam
    from openai.types.chat import ChatCompletionAssistantMessageParam, ChatCompletionToolMessageParam

    messages = [{"role": "user", "text": "Add a note."},
                {"role": "assistant", "text": "", "calls": [{"id": "c1", "name": "search.incidents", "arguments": {}}]},
                {"role": "tool", "id": "c1", "name": "search.incidents", "text": "{}", "is_error": False}]
    claude = models.anthropic_messages(messages)
    for message in claude:
        conforms(UserMessageParam if message["role"] == "user" else AssistantMessageParam, message)
    conforms(ToolUseBlockParam, claude[1]["content"][0])
    conforms(ToolResultBlockParam, claude[2]["content"][0])
    assert claude[1]["content"][0]["name"] == "search_incidents"
    gpt = models.openai_messages(messages)
    conforms(ChatCompletionAssistantMessageParam, gpt[2])
    conforms(ChatCompletionToolMessageParam, gpt[3])


def test_no_key_is_one_line_and_the_model_comes_from_an_argument_or_the_environment(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(models.MissingKey, match="^ANTHROPIC_API_KEY is not set: the anthropic chooser needs an API key"):
        models.AnthropicChooser("m")
    with pytest.raises(models.MissingKey, match="^OPENAI_API_KEY is not set"):
        models.OpenAIChooser("m")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.delenv(models.MODEL_ENV, raising=False)
    with pytest.raises(UsageError, match="no model chosen: pass --model"):
        models.OpenAIChooser()
    monkeypatch.setenv(models.MODEL_ENV, "from-the-environment")
    assert models.OpenAIChooser(cache=False).model == "from-the-environment"
    assert models.OpenAIChooser("from-an-argument", cache=False).model == "from-an-argument"


class RateLimited(Exception):
    status_code = 429


def test_rate_limits_are_retried_with_exponential_backoff_and_other_errors_are_not():
    waits, attempts = [], []

    def flaky():
        attempts.append(1)
        if len(attempts) < 3:
            raise RateLimited("slow down")
        return "ok"

    assert models.with_retries(flaky, retries=5, base=0.5, sleep=waits.append) == "ok"
    assert waits == [0.5, 1.0]
    with pytest.raises(RateLimited):
        models.with_retries(lambda: (_ for _ in ()).throw(RateLimited("x")), retries=2, sleep=waits.append)
    with pytest.raises(ValueError):
        models.with_retries(lambda: (_ for _ in ()).throw(ValueError("bad request")), sleep=waits.append)


def test_the_sdks_own_rate_limit_error_is_recognized():
    anthropic = pytest.importorskip("anthropic")
    import httpx

    response = httpx.Response(429, request=httpx.Request("POST", "https://api.invalid/v1/messages"))
    assert models.is_rate_limit(anthropic.RateLimitError("slow down", response=response, body=None))


def fake_anthropic(calls: list):
    def create(**params):
        calls.append(params)
        block = SimpleNamespace(type="tool_use", id="t1", name="get_incident", input={"incidentId": "INC-101"})
        return SimpleNamespace(content=[block], usage=SimpleNamespace(input_tokens=900, output_tokens=40))
    return SimpleNamespace(messages=SimpleNamespace(create=create))


def test_answers_are_cached_by_model_definitions_and_request(tmp_path, desk):
    calls = []
    cache = models.ResponseCache(tmp_path)
    claude = models.AnthropicChooser("m1", client=fake_anthropic(calls), cache=cache)
    first = claude.choose("Show me INC-101.", desk)
    again = claude.choose("Show me INC-101.", desk)
    assert first == again and first.tool == "get_incident" and (first.tokens_in, first.tokens_out) == (900, 40)
    assert len(calls) == 1
    claude.choose("Show me INC-102.", desk)                                    # another request
    models.AnthropicChooser("m2", client=fake_anthropic(calls), cache=cache).choose("Show me INC-101.", desk)
    claude.choose("Show me INC-101.", desk[:2])                                 # other definitions
    assert len(calls) == 4 and len(list(tmp_path.glob("*.json"))) == 4


def test_openai_tool_calls_are_read_back_to_mcp_names(desk):
    message = SimpleNamespace(content=None, tool_calls=[SimpleNamespace(
        id="c1", function=SimpleNamespace(name="add_incident_note", arguments=json.dumps({"incidentId": "INC-1"})))])
    response = SimpleNamespace(choices=[SimpleNamespace(message=message)],
                               usage=SimpleNamespace(prompt_tokens=10, completion_tokens=3))
    client = SimpleNamespace(chat=SimpleNamespace(completions=SimpleNamespace(create=lambda **_: response)))
    choice = models.OpenAIChooser("m", client=client, cache=False).choose("x", desk)
    assert (choice.tool, choice.arguments, choice.tokens_in) == ("add_incident_note", {"incidentId": "INC-1"}, 10)


def test_model_choosers_run_concurrently_within_the_bound(desk):
    import threading
    import time

    from course_lib.evals import cases, score

    running, peak, lock = [0], [0], threading.Lock()

    class Slow:
        name = "slow"

        def choose(self, request, tools, prior=()):
            with lock:
                running[0] += 1
                peak[0] = max(peak[0], running[0])
            time.sleep(0.02)
            with lock:
                running[0] -= 1
            return models.Choice(None)

    report = score.evaluate(cases.load("incidents"), desk, Slow(), concurrency=3)
    assert len(report.results) == 9 and peak[0] == 3
    assert [r.case for r in report.results] == [c.id for c in cases.load("incidents")]  # order kept


# --- the agent loop -----------------------------------------------------------------------------------------------

REQUEST_ID = "0b6d2f4e-8a1c-4e3b-9d5f-7c1a3e5b9d20"


def test_the_agent_loop_runs_real_calls_and_verifies_in_the_store():
    task = agent.incident_tasks()[0]
    model = agent.ScriptedModel([[("search_incidents", {"query": "checkout latency"})],
                                 [("add_incident_note", {"incidentId": "INC-101", "note": "Cache flushed.",
                                                         "requestId": REQUEST_ID})]])
    done = wire.run_sync(agent.run_task, model, task)
    assert done.success and done.stopped == "model finished" and done.steps == 3 and done.errors == []
    assert [name for name, _ in done.calls] == ["search_incidents", "add_incident_note"]
    assert (done.tokens_in, done.tokens_out) == (30, 12)
    assert model.seen[1] == ["user", "assistant", "tool"]  # the model saw the tool's result


def test_the_step_limit_stops_a_model_that_never_finishes_and_errors_are_counted():
    task = agent.incident_tasks()[0]
    looping = agent.ScriptedModel([[("get_incident", {"incidentId": "INC-999"})]] * 20)
    done = wire.run_sync(agent.run_task, looping, task, 3)
    assert not done.success and done.stopped == "step limit" and done.steps == 3 and len(done.errors) == 3


def test_twice_the_same_note_with_two_keys_fails_the_exactly_one_note_task():
    task = agent.incident_tasks()[0]
    note = {"incidentId": "INC-101", "note": "Cache flushed."}
    twice = agent.ScriptedModel([[("add_incident_note", {**note, "requestId": REQUEST_ID})],
                                 [("add_incident_note", {**note, "requestId": "1c9d6e24-7a3b-4f58-9e21-6b0d4c8a2f17"})]])
    assert not wire.run_sync(agent.run_task, twice, task).success
    close = agent.incident_tasks()[1]
    bound = agent.ScriptedModel([[("close_incident", {"incidentId": "INC-103", "resolution": "fixed",
                                                       "previewToken": "pv-000000000000"})]])
    assert not wire.run_sync(agent.run_task, bound, close).success  # no preview, no close


def test_the_lesson_servers_used_by_tasks_are_fresh_per_run():
    task = agent.incident_tasks()[0]
    note = [[("add_incident_note", {"incidentId": "INC-101", "note": "x", "requestId": REQUEST_ID})]]
    assert wire.run_sync(agent.run_task, agent.ScriptedModel(note), task).success
    assert wire.run_sync(agent.run_task, agent.ScriptedModel(note), task).success
    assert weather  # imported for symmetry with the lesson


def test_the_anthropic_adapter_drives_the_agent_loop_with_requests_the_sdk_accepts():
    pytest.importorskip("anthropic")
    from anthropic.types import message_create_params

    sent = []
    turns = [
        [SimpleNamespace(type="tool_use", id="t1", name="search_incidents", input={"query": "checkout latency"})],
        [SimpleNamespace(type="tool_use", id="t2", name="add_incident_note",
                         input={"incidentId": "INC-101", "note": "Cache flushed.", "requestId": REQUEST_ID})],
        [SimpleNamespace(type="text", text="Added the note.")],
    ]

    def create(**params):
        sent.append(params)
        return SimpleNamespace(content=turns[len(sent) - 1], usage=SimpleNamespace(input_tokens=100, output_tokens=9))

    claude = models.AnthropicChooser("m", client=SimpleNamespace(messages=SimpleNamespace(create=create)), cache=False)
    done = wire.run_sync(agent.run_task, claude, agent.incident_tasks()[0])
    assert done.success and done.steps == 3 and (done.tokens_in, done.tokens_out) == (300, 27)
    for params in sent:
        conforms(message_create_params.MessageCreateParamsNonStreaming, params)
    assert sent[2]["messages"][-1]["content"][0]["type"] == "tool_result"
