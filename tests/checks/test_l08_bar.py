"""Exercise 8.2's bar is one a learner can know before submitting: a tune-set score they measure themselves,
one more than the vague desk's; the figures the text states are the measured ones."""

from __future__ import annotations

from course_lib.checks import l08
from course_lib.evals import cases, offline, run
from course_lib.servers import incidents


def test_the_bar_is_one_tune_case_more_than_the_vague_desk_as_the_text_says():
    tools = l08._tools(l08._vague_desk(incidents.Store(), "ana"))
    vague = run.evaluate(cases.load("incident_notes").split("tune"), tools, offline.OfflineChooser())
    assert (vague.accuracy.k, vague.accuracy.n) == (l08.NEEDED_TUNE - 1, 7)
    stated = l08.RULES_8_2[-1].states
    assert stated.startswith(f"get at least {l08.NEEDED_TUNE} of the {vague.accuracy.n} tune cases right") and \
        f"the vague desk's {vague.accuracy.k} " in stated
