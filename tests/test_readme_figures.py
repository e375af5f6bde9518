"""The figures README.md states about the course's own code and data, read from the README and compared with
what the code holds or does now, so that a README number that drifts fails here (claims review round 8 found
five stale ones: retried statuses, cheat count, review corpus size, reading-time constants, agent score)."""

from __future__ import annotations

import importlib.util
import re
import sys
import tomllib

import pytest

from conftest import ROOT
from provider_helpers import anthropic_raises_overloaded_for

README = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())


def stated(pattern: str) -> tuple[str, ...]:
    """The groups of the one README passage that matches `pattern` (whitespace collapsed)."""
    found = re.findall(pattern, README)
    assert len(found) == 1, f"README.md should say this once: {pattern!r} (found {len(found)})"
    return found[0] if isinstance(found[0], tuple) else (found[0],)


def test_the_cheat_count_is_the_corpus_of_cheats(monkeypatch):
    (count,) = stated(r"`tests/workbook/test_cheating\.py` keeps (\d+) cheating submissions")
    spec = importlib.util.spec_from_file_location("readme_cheats", ROOT / "tests" / "workbook" / "test_cheating.py")
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # its dataclass looks its module up while it is built
    spec.loader.exec_module(module)
    assert int(count) == len(module.CORPUS) == len({cheat.name for cheat in module.CORPUS})


def test_the_review_corpus_size_is_its_manifest():
    snapshots, servers, registries = stated(
        r"`tests/review_corpus/` holds (\d+) snapshots of (\d+) published servers \(([^)]+)\)")
    folder = ROOT / "tests" / "review_corpus"
    manifest = tomllib.loads((folder / "corpus.toml").read_text(encoding="utf-8"))
    assert int(snapshots) == len(manifest) == len(list(folder.glob("*.json")))
    assert int(servers) == len({entry["package"] for entry in manifest.values()})
    assert set(registries.split(" and ")) == {entry["registry"] for entry in manifest.values()}


def test_the_retried_statuses_and_the_default_timeout_are_the_providers_code():
    from course_lib.evals import models

    codes, also, sdk, timeout = stated(r"HTTP ((?:\d{3}, )+)every 5xx \(Anthropic's (\d{3}), which its Python SDK "
                                       r"\(`anthropic` ([\d.]+)\) raises as `OverloadedError`, is one\), lost "
                                  r"connections, replies that are not readable JSON and requests that take longer "
                                  r"than `--timeout SECONDS` \(default "
                                  r"(\d+), per request\) are retried with backoff that honours `Retry-After`")

    def failure(name: str, status: int | None = None) -> Exception:
        error = type(name, (Exception,), {})()
        error.status_code = status
        return error

    retried = {status for status in range(100, 600) if models.is_retryable(failure("Status", status))}
    assert retried == {int(code) for code in re.findall(r"\d{3}", codes)} | set(range(500, 600))
    assert int(also) in retried and models.is_rate_limit(failure("Status", int(also)))
    assert anthropic_raises_overloaded_for(int(also))
    import anthropic

    assert anthropic.__version__ == sdk  # the SDK the 529 -> OverloadedError fact was tested on
    assert models.is_retryable(failure("APIConnectionError")) and models.is_retryable(failure("APITimeoutError"))
    assert models.is_retryable(failure("APIResponseValidationError"))
    assert float(timeout) == models.TIMEOUT


def test_the_reading_time_constants_are_the_manifests():
    from course_lib.workbook import manifest

    words, cell, code, output = stated(
        r"\((\d+) words a minute of prose, ([\d.]+) minutes per code cell, ([\d.]+) per line of code and ([\d.]+) "
        r"per line of output, as `course_lib/workbook/manifest\.py` sets them;")
    assert (int(words), float(cell), float(code), float(output)) == (
        manifest.WORDS_PER_MINUTE, manifest.MINUTES_PER_CODE_CELL, manifest.MINUTES_PER_CODE_LINE,
        manifest.MINUTES_PER_OUTPUT_LINE)
    part = manifest.Part(words=260, code_cells=1, code_lines=10, output_lines=10)  # the four terms, and no other
    assert part.minutes == pytest.approx(260 / int(words) + float(cell) + 10 * float(code) + 10 * float(output))


def test_the_offline_agents_task_scores_are_what_it_scores_now():
    from course_lib import wire
    from course_lib.evals import cases, offline, run

    tune_k, tune_n, held_k, held_n = stated(
        r"\(`offline\.LexicalAgent`\) succeeds on (\d+) of the (\d+) tune tasks and (\d+) of the (\d+) held-out tasks")

    async def success(split: str):
        results = []
        for name in sorted(name for name in cases.packaged() if name.startswith("tasks")):
            chosen = cases.load(name).split(split)
            if chosen.tasks:
                found = await run.run_tasks(list(chosen.tasks), offline.LexicalAgent(), run.Target.of(chosen.server))
                results += found.results
        return run.TaskReport("", "", results).success

    tune, held_out = wire.run_sync(success, "tune"), wire.run_sync(success, "held-out")
    assert (tune.k, tune.n) == (int(tune_k), int(tune_n))
    assert (held_out.k, held_out.n) == (int(held_k), int(held_n))


def test_the_offline_choosers_case_scores_are_what_it_scores_now():
    from course_lib import servers, wire
    from course_lib.evals import cases, offline, run, score

    figures = stated(r"it gets (\d+)/(\d+) of the tune cases \((\d+) %, 95 % CI (\d+)–(\d+) %; [^)]*\) and "
                     r"(\d+)/(\d+) of the held-out cases \((\d+) %, (\d+)–(\d+) %; "
                     r"`incident_notes` holds (\d+) more held-out cases, (\d+) right")

    def accuracy(names: list[str], split: str):
        right = total = 0
        for name in names:
            found = cases.load(name).split(split)
            build = servers.factory(found.server)
            report = run.evaluate(found, wire.run_sync(wire.list_tools, build()), offline.OfflineChooser(),
                                  server=build)
            right, total = right + report.accuracy.k, total + report.accuracy.n
        return score.wilson(right, total)

    def words(interval) -> list[int]:
        return [interval.k, interval.n] + [round(100 * x) for x in (interval.rate, interval.low, interval.high)]

    tune = accuracy(["incidents", "safety", "weather", "incident_notes"], "tune")
    held_out = accuracy([name for name in cases.packaged() if name.startswith("heldout_")], "held-out")
    notes = accuracy(["incident_notes"], "held-out")
    assert [int(figure) for figure in figures] == words(tune) + words(held_out) + [notes.n, notes.k]
