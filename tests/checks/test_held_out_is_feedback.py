"""Issue 29 item 3 (red team rtgrade7 F5): a student release keeps lesson 08's held-out case sets (the lesson runs
them), so no grade may depend on a student not having seen them. 8.2's held-out score is feedback: an answer whose
held-out score is 0 passes as one whose score is high does, and its pass line says so."""

from __future__ import annotations

import importlib.util
from dataclasses import replace

from conftest import ROOT
from course_lib.checks import l08
from course_lib.evals import cases
from course_lib.workbook import manifest

TOOLS = ("search_incidents", "get_incident", "add_incident_note")


def _right_answer():
    path = ROOT / manifest.ANSWERS / "right" / "ex_08_2_docstrings.py"
    spec = importlib.util.spec_from_file_location("answer_held_out_feedback", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.answer


def test_8_2_passes_whatever_its_held_out_score(monkeypatch, capsys):
    real = cases.load

    def every_held_out_case_expects_another_tool(name, *args, **kwargs):
        found = real(name, *args, **kwargs)
        if name != "incident_notes":
            return found
        turned = tuple(replace(case, expect=TOOLS[(TOOLS.index(case.expect) + 1) % 3 if case.expect in TOOLS else 0],
                               args={}, patterns={})
                       if case.split == "held-out" else case for case in found.cases)
        return replace(found, cases=turned)

    answer = _right_answer()
    l08.ex_08_2(answer)
    passed = capsys.readouterr().out
    assert passed.startswith("✅ Exercise 8.2 passed: ") and "held-out, as feedback: " in passed
    assert "held-out, as feedback: 0 of" not in passed
    monkeypatch.setattr(cases, "load", every_held_out_case_expects_another_tool)
    l08.ex_08_2(answer)
    held_out_missed = capsys.readouterr().out
    assert held_out_missed.startswith("✅ Exercise 8.2 passed: "), held_out_missed
    assert "held-out, as feedback: 0 of 8" in held_out_missed, held_out_missed
