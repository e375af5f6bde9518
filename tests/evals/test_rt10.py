"""Red team 10's classes (issue 27) with a clear mechanism: reversal words in a task's written field (R1), a run
that finishes with no readable last words (R2), repeats of free text judged by its words (R4)."""

from __future__ import annotations

import uuid

from course_lib.evals import cases, run
from test_rt9 import SEARCH, retro, task_run


def step(text: str) -> list:
    return [("add_runbook_step", {"service": "checkout", "step": text, "requestId": str(uuid.uuid4())})]


def note(text: str) -> list:
    return [("add_incident_note", {"incidentId": "INC-101", "note": text, "requestId": str(uuid.uuid4())})]


def test_a_task_record_that_keeps_the_phrases_but_turns_them_round_fails():
    for text in ["Cache flushed, latency back under 1 s, then worse again.",  # C01
                 "Cache flushed, latency back under 1 s; the flush was later reverted."]:  # C06
        done = task_run("tasks", "note-on-checkout-latency", SEARCH, note(text), "Added the note to INC-101.")
        assert not done.success, text
    assert task_run("tasks", "note-on-checkout-latency", SEARCH, note("Cache flushed, latency back under 1 s."),
                    "Added the note to INC-101.").success
    reverted = task_run("tasks_ops", "runbook-step-for-checkout",  # C05
                        step("Page the payments team if card errors rise (reverted)."),
                        "Added the step to the checkout runbook.")
    assert not reverted.success
    assert task_run("tasks_ops", "runbook-step-for-checkout", step("Page the payments team if card errors rise."),
                    "Added the step to the checkout runbook.").success
