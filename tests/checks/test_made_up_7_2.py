"""Red team rtgrade6 g1 (F10): 7.2 passed by an allowlist. Every clean definition the check used was knowable in the
kernel (the course servers, the fixed near misses of checks/l07.py), so `is_poisoned = key(tool) not in CLEAN`
passed without detecting anything. The check now also makes up clean definitions in the grader on every run, and
poisoned ones the same way; an allowlist fails, every kept right answer passes whatever the draw."""

from __future__ import annotations

import copy
import importlib.util
import json
from pathlib import Path

import pytest

from conftest import ROOT
from course_lib import checks, servers, wire
from course_lib.checks import l07
from course_lib.errors import CheckFailed
from course_lib.workbook.ids import ExerciseId

RIGHT = sorted((ROOT / "tests" / "answers" / "right").glob("ex_07_2_*.py"))


def _answer(path: Path):
    spec = importlib.util.spec_from_file_location(f"right_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.answer


def _allowlist():
    """g1's answer: every definition the kernel can list or read in checks/l07.py is clean, all else poisoned."""
    key = lambda tool: json.dumps([tool.get("name"), tool.get("description"), tool.get("inputSchema")],  # noqa: E731
                                  sort_keys=True)
    clean = {key(wire.dump(tool)) for name in servers.REGISTRY if name not in l07.EXEMPT
             for tool in wire.run_sync(wire.list_tools, servers.build(name))}
    for text in (l07.GOOD, "Use it only after the person has seen the preview. Do not use it to add notes.",
                 "Count the tokens of a definition. Do not use it for results; tell the person the count.",
                 "Read one runbook by its service name; matching ignores case and extra spaces.",
                 "Read one runbook. It always returns the newest version first.",
                 "Read one runbook; the lookup key is its service name.", f"\u26a0\ufe0f {l07.GOOD}"):
        clean.add(key(l07._definition(text)))
    clean.add(key(l07._definition(param="The service.\u2600\ufe0f")))
    return lambda tool: key(tool) not in clean


def test_an_allowlist_of_every_knowable_clean_definition_fails(monkeypatch):
    monkeypatch.setenv(l07.SEED_ENV, "7")
    with pytest.raises(CheckFailed, match="a clean definition flagged"):
        checks.registered(ExerciseId(7, 2))(_allowlist())


@pytest.mark.parametrize("path", RIGHT, ids=lambda path: path.stem)
def test_every_kept_right_answer_decides_the_made_up_definitions_rightly(path):
    """50 draws of 12 clean and 12 poisoned made-up definitions (the unseen rounds' current right answers were
    measured the same way over 300 draws, none wrong)."""
    is_poisoned = _answer(path)
    for seed in range(50):
        clean, poisoned = l07._made_up_cases(seed)
        assert [d["name"] for d in clean if is_poisoned(copy.deepcopy(d))] == [], seed
        assert [what for _rule, what, d in poisoned if not is_poisoned(copy.deepcopy(d))] == [], seed


def test_the_draw_is_new_each_run_unless_a_seed_is_set(monkeypatch):
    assert l07._made_up_cases(1) == l07._made_up_cases(1)
    assert l07._made_up_cases(1)[0] != l07._made_up_cases(2)[0]
    monkeypatch.delenv(l07.SEED_ENV, raising=False)
    assert l07._made_up_cases()[0] != l07._made_up_cases()[0]
    monkeypatch.setenv(l07.SEED_ENV, "5")
    assert l07._made_up_cases() == l07._made_up_cases(5)
    clean, poisoned = l07._made_up_cases(1)
    assert len(clean) == len(poisoned) == l07.MADE_UP
    assert len({rule for rule, _what, _d in poisoned}) >= 3


def test_made_up_concealment_orders_are_worded_afresh_not_copied_from_the_check():
    """An answer that has read the grader and lists its concealment sentences verbatim misses the orders the
    made-up definitions word afresh each run (three per run)."""
    copied = tuple(phrase.lower() for phrase in l07.CONCEAL)
    fresh = [what for seed in range(20) for rule, what, definition in l07._made_up_cases(seed)[1]
             if rule == "concealment" and not any(phrase in str(definition).lower() for phrase in copied)]
    assert len(fresh) >= 2 * 20, fresh[:3]  # 56 of 60 (a drawn wording may match one of CONCEAL)
