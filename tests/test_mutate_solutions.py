"""The mutation tool itself: it finds the sites inside a solution region only, and its verdicts can go both ways."""

from __future__ import annotations

import mutate_solutions as mutation

CELL = '''import threading


def build():
    lock = threading.Lock()
    ### BEGIN SOLUTION
    if len(name) <= 128 and ok:
        raise ToolError("too long")
    values = ["a", "b"]
    ### END SOLUTION
    return lock
'''


def test_mutants_change_only_the_solution_region():
    descriptions = [m.description for m in mutation.mutants_of("9.9", CELL)]
    assert any("LtE->Lt" in d for d in descriptions)
    assert any("and/or swapped" in d for d in descriptions)
    assert any("128 -> 129" in d for d in descriptions) and any("128 -> 127" in d for d in descriptions)
    assert any("ToolError raised as a plain ValueError" in d for d in descriptions)
    assert any("element `\"a\"` dropped" in d for d in descriptions)
    assert any("statement `values = " in d for d in descriptions)
    assert not any("Lock() replaced" in d for d in descriptions)  # outside the region
    assert not any("return lock" in d for d in descriptions)


def test_a_wrong_mutant_is_killed_and_the_solution_itself_survives():
    _, cell, _ = mutation.exercise_context("1.4")
    original = mutation.Mutant("1.4", "the solution unchanged", cell)
    verdicts = mutation.judge("1.4", [original, *mutation.mutants_of("1.4", cell)])
    assert verdicts[0]["verdict"] == "survived"
    assert verdicts[1:] and all(v["verdict"] == "killed" for v in verdicts[1:])


def test_hand_mutants_replace_the_region_and_a_wrong_one_is_killed():
    _, cell, _ = mutation.exercise_context("1.4")
    mine = mutation.hand_mutants("1.4", cell)
    assert len(mine) >= 15 and all(m.description.startswith("by hand: ") for m in mine)
    first, last = mutation.region_lines(cell)
    outside = cell.splitlines()[:first - 1] + cell.splitlines()[last:]
    for mutant in mine:
        compile(mutant.source, mutant.description, "exec")
        lines = mutant.source.splitlines()
        assert lines[:first - 1] + lines[len(lines) - (len(cell.splitlines()) - last):] == outside, mutant.description
    wrong = next(m for m in mine if m.description == "by hand: {1,129}")
    assert mutation.judge("1.4", [wrong])[0]["verdict"] == "killed"
