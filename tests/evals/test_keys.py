"""Keys only where they belong, a timeout per request, the token cap in the field the endpoint reads: the real SDK
clients against the fake provider on 127.0.0.1, which records every request's headers and body."""

from __future__ import annotations

import pytest

from course_lib import wire
from course_lib.evals import models
from course_lib.evals.choice import ProviderError
from course_lib.servers import incidents
from fake_provider import STALL, FakeProvider, anthropic_reply, openai_reply
from test_cli import course, one_line_error

REAL_KEYS = {"OPENAI_API_KEY": "sk-real-openai-secret", "ANTHROPIC_API_KEY": "sk-ant-real-secret",
             "ANTHROPIC_AUTH_TOKEN": "real-anthropic-token"}


@pytest.fixture(scope="module")
def desk() -> list[dict]:
    return wire.dump(wire.run_sync(wire.list_tools, incidents.build_server()))


@pytest.fixture(autouse=True)
def real_keys_set(monkeypatch, tmp_path):
    """Every real key variable set, as on a learner's laptop; the fake on loopback reached without a proxy."""
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv(models.CACHE_ENV, str(tmp_path / "cache"))
    for name, value in REAL_KEYS.items():
        monkeypatch.setenv(name, value)
    for name in ("OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"):
        monkeypatch.delenv(name, raising=False)


def leaked(fake: FakeProvider) -> list[str]:
    """The real key values found in any header of any request the fake received."""
    return [value for request in fake.requests for header in request["headers"].values()
            for value in REAL_KEYS.values() if value in header]


@pytest.mark.parametrize("url, loopback", [
    ("http://127.0.0.1:8080/v1", True), ("http://127.8.9.10/v1", True), ("http://[::1]:11434/v1", True),
    ("http://[::ffff:127.0.0.1]/v1", True), ("http://localhost:1234/v1", True), ("http://LOCALHOST./v1", True),
    ("http://127.evil.example/v1", False), ("http://localhost.evil.example/v1", False),
    ("http://127.0.0.1.nip.io/v1", False), ("http://0x7f000001/v1", False), ("http://10.0.0.1/v1", False),
    ("http://[::2]/v1", False), ("not a url", False), (None, False),
])
def test_loopback_is_an_ip_literal_or_localhost_never_a_text_prefix(url, loopback):
    assert models.is_loopback(url) is loopback


def test_a_provider_key_goes_only_to_its_own_host_or_where_the_user_names_it(monkeypatch):
    assert models.require_key("openai") == REAL_KEYS["OPENAI_API_KEY"]
    assert models.require_key("openai", "https://api.openai.com/v1") == REAL_KEYS["OPENAI_API_KEY"]
    assert models.require_key("anthropic", "https://api.anthropic.com") == REAL_KEYS["ANTHROPIC_API_KEY"]
    assert models.require_key("openai", "http://127.0.0.1:8080/v1") == models.NO_KEY
    assert models.require_key("anthropic", "http://[::1]:9/") == models.NO_KEY
    for url in ("http://127.evil.example/v1", "http://api.openai.com.evil.example/v1"):
        with pytest.raises(models.MissingKey, match="OPENAI_API_KEY is sent only to api.openai.com, not to"):
            models.require_key("openai", url)
    with pytest.raises(models.MissingKey, match="^OPENAI_API_KEY is sent only over https, and http://api.openai.com/v1 "
                                                "is http: use https://api.openai.com$"):
        models.require_key("openai", "http://api.openai.com/v1")
    monkeypatch.setenv("MY_RUNNER_KEY", "runner-key")
    assert models.require_key("openai", "http://127.evil.example/v1", "MY_RUNNER_KEY") == "runner-key"
    assert models.require_key("openai", "http://127.0.0.1/v1", "OPENAI_API_KEY") == REAL_KEYS["OPENAI_API_KEY"]
    with pytest.raises(models.MissingKey, match="^UNSET_VAR is not set: --api-key-env names"):
        models.require_key("openai", "http://127.0.0.1/v1", "UNSET_VAR")


def test_no_real_key_reaches_a_loopback_runner_unless_named(desk, monkeypatch):
    pytest.importorskip("openai")
    pytest.importorskip("anthropic")
    reply = openai_reply([("get_incident", '{"incidentId": "INC-101"}')])
    with FakeProvider([reply], repeat_last=True) as fake:
        models.chooser("openai", "m", base_url=f"{fake.url}/v1", cache=False).choose("Show INC-101.", desk)
        assert fake.requests and leaked(fake) == []
        assert fake.requests[0]["headers"]["authorization"] == f"Bearer {models.NO_KEY}"
        monkeypatch.setenv("MY_RUNNER_KEY", "runner-key")
        models.chooser("openai", "m", base_url=f"{fake.url}/v1", api_key_env="MY_RUNNER_KEY",
                       cache=False).choose("Show INC-101.", desk)
        assert fake.requests[-1]["headers"]["authorization"] == "Bearer runner-key"
        models.chooser("openai", "m", base_url=f"{fake.url}/v1", api_key_env="OPENAI_API_KEY",
                       cache=False).choose("Show INC-101.", desk)  # named by the user: sent
        assert leaked(fake) == [REAL_KEYS["OPENAI_API_KEY"]]
    with FakeProvider([anthropic_reply([("get_incident", {"incidentId": "INC-101"})])]) as fake:
        models.chooser("anthropic", "m", base_url=fake.url, cache=False).choose("Show INC-101.", desk)
        assert fake.requests and leaked(fake) == []  # neither ANTHROPIC_API_KEY nor ANTHROPIC_AUTH_TOKEN
        assert models.NO_KEY in " ".join(fake.requests[0]["headers"].values())


def test_course_eval_sends_no_real_key_to_a_loopback_base_url(tmp_path):
    pytest.importorskip("openai")
    (tmp_path / "one.toml").write_text('server = "incidents"\n[[case]]\nid = "a"\nrequest = "Show INC-101."\n'
                                       'expect = "get_incident"\nsplit = "tune"\n')
    reply = openai_reply([("get_incident", '{"incidentId": "INC-101"}')])
    with FakeProvider([reply], repeat_last=True) as fake:
        result = course("eval", str(tmp_path / "one.toml"), "--chooser", "openai", "--base-url", f"{fake.url}/v1",
                        "--model", "m", "--no-transcripts")
    assert result.returncode == 0, result.stderr
    assert len(fake.requests) == 1 and leaked(fake) == []
    assert fake.requests[0]["body"]["max_tokens"] == 512 and "max_completion_tokens" not in fake.requests[0]["body"]


def test_course_eval_refuses_to_send_a_provider_key_to_another_host_in_one_line():
    line = one_line_error(course("eval", "safety", "--chooser", "openai", "--base-url", "https://llm.example.org/v1",
                                 "--model", "m"))
    assert "OPENAI_API_KEY is sent only to api.openai.com, not to llm.example.org: name the variable" in line
    assert REAL_KEYS["OPENAI_API_KEY"] not in line


def test_the_token_cap_goes_where_the_endpoint_reads_it():
    pytest.importorskip("openai")
    local = models.OpenAIChooser("m", base_url="http://127.0.0.1:8080/v1", cache=False, max_tokens=77)
    assert local.params([{"role": "user", "text": "x"}], [])["max_tokens"] == 77
    assert "max_completion_tokens" not in local.params([{"role": "user", "text": "x"}], [])
    own = models.OpenAIChooser("m", cache=False, max_tokens=77)  # OpenAI's own API
    assert own.params([{"role": "user", "text": "x"}], [])["max_completion_tokens"] == 77
    assert "max_tokens" not in own.params([{"role": "user", "text": "x"}], [])


def test_a_stalled_request_times_out_and_is_retried(desk):
    pytest.importorskip("openai")
    pytest.importorskip("anthropic")
    reply = openai_reply([("get_incident", '{"incidentId": "INC-101"}')])
    waits: list[float] = []
    with FakeProvider([STALL, reply]) as fake:
        chooser = models.OpenAIChooser("m", base_url=f"{fake.url}/v1", cache=False, timeout=0.2, retries=1,
                                       sleep=waits.append)
        assert chooser.choose("Show INC-101.", desk).tool == "get_incident"
    assert len(fake.requests) == 2 and waits == [1.0]  # the first request gave up; the second answered
    with FakeProvider([STALL, STALL]) as fake:
        stuck = models.AnthropicChooser("m", base_url=fake.url, cache=False, timeout=0.2, retries=1,
                                        sleep=waits.append)
        with pytest.raises(ProviderError, match=r"could not reach anthropic at .*\(after 2 tries\)"):
            stuck.choose("Show INC-101.", desk)
    assert len(fake.requests) == 2
    assert models.OpenAIChooser("m", cache=False).timeout == models.TIMEOUT == 60.0


def test_course_eval_timeout_applies_per_request(tmp_path):
    pytest.importorskip("openai")
    (tmp_path / "one.toml").write_text('server = "incidents"\n[[case]]\nid = "a"\nrequest = "Show INC-101."\n'
                                       'expect = "get_incident"\nsplit = "tune"\n')
    reply = openai_reply([("get_incident", '{"incidentId": "INC-101"}')])
    with FakeProvider([STALL, reply]) as fake:
        result = course("eval", str(tmp_path / "one.toml"), "--chooser", "openai", "--base-url", f"{fake.url}/v1",
                        "--model", "m", "--no-transcripts", "--timeout", "0.3")
    assert result.returncode == 0 and "selection accuracy 1/1" in result.stdout, result.stderr
    assert len(fake.requests) == 2  # the stalled request was given up after 0.3 s and retried
    assert [r["headers"]["x-stainless-read-timeout"] for r in fake.requests] == ["0.3", "0.3"]  # what the SDK used
    for bad in ("0", "-1"):
        assert "--timeout must be a number of seconds above 0" in one_line_error(
            course("eval", "safety", "--chooser", "openai", "--base-url", f"{fake.url}/v1", "--model", "m",
                   "--timeout", bad))


# --- a call whose arguments cannot be read ---------------------------------------------------------------------

BROKEN = '{"incidentId": "INC-101", "note": "Cache flushed.'  # cut off: not JSON


def test_a_malformed_call_is_a_wrong_call_in_accuracy_and_pass_hat_k(desk):
    pytest.importorskip("openai")
    from course_lib.evals import cases, run

    case = cases.Case("read", "Show INC-101.", "get_incident", args={"incidentId": "INC-101"})
    with FakeProvider([openai_reply([("get_incident", '{"incidentId": "INC-101"')])], repeat_last=True) as fake:
        report = run.evaluate([case], desk, models.OpenAIChooser("m", base_url=f"{fake.url}/v1", cache=False),
                              trials=2)
    assert [r.selected for r in report.results] == [False, False] and report.accuracy.k == 0
    assert report.pass_hat_k().k == 0 and report.validity.k == 0
    assert report.results[0].problems == ("the arguments are not a JSON object: '{\"incidentId\": \"INC-101\"'",)


def test_the_model_sees_its_own_malformed_arguments_back_with_the_error():
    pytest.importorskip("openai")
    from course_lib.evals import cases, run

    task = next(t for t in cases.load("tasks").tasks if t.id == "note-on-checkout-latency")
    replies = [openai_reply([("add_incident_note", BROKEN)]), openai_reply(text="I could not add it.")]
    with FakeProvider(replies) as fake:
        done = wire.run_sync(run.run_task, models.OpenAIChooser("m", base_url=f"{fake.url}/v1", cache=False), task,
                             run.Target(factory=incidents.build_server))
    assert not done.success and done.calls == [] and len(fake.requests) == 2
    sent = fake.bodies[1]["messages"]
    assert sent[2]["tool_calls"][0]["function"]["arguments"] == BROKEN  # as the model wrote it, not "{}"
    assert sent[3]["role"] == "tool" and BROKEN in sent[3]["content"]
    assert "send the arguments as one JSON object" in sent[3]["content"]


# --- offline token counts ----------------------------------------------------------------------------------------


def test_the_offline_agent_reports_the_tokens_a_model_would_be_sent_never_zeros():
    import json as _json

    from course_lib import tokens
    from course_lib.evals import agent, cases, offline, run

    task = next(t for t in cases.load("tasks").tasks if t.id == "close-103-as-fixed")

    async def go():
        async with run.Target(factory=incidents.build_server).connect() as client:
            tools = wire.dump(list((await client.list_tools()).tools))
            return tools, await agent.loop(offline.LexicalAgent(), client, tools, task.request, task.max_steps)

    tools, loop = wire.run_sync(go)
    enc = tokens.encoding("o200k_base")
    asked = [index for index, message in enumerate(loop.messages) if message["role"] == "assistant"]
    offered = [{"name": t["name"], "description": t["description"], "inputSchema": t["inputSchema"]} for t in tools]
    expected_in = sum(len(enc.encode(_json.dumps({"messages": loop.messages[:index], "tools": offered},
                                                 ensure_ascii=False, separators=(",", ":"))))
                      for index in asked)
    assert loop.steps == len(asked) == 3 and loop.tokens_in == expected_in and loop.tokens_out > 0
    definitions = len(enc.encode(_json.dumps(offered, ensure_ascii=False, separators=(",", ":"))))
    assert loop.tokens_in > loop.steps * definitions  # every step carries every definition
    table = course("eval", "tasks")
    assert "0/0" not in table.stdout and "counted by the course's tokenizer, o200k_base" in table.stdout
