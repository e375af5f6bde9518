"""The kept answers across the grading boundary (`course check`, `course grade`), judged by the same checkers and
the same oracle as in process (tests/checks/test_checkers.py): every right answer passes, every wrong one
fails with its expected words and hint. The notebooks' side is tests/workbook/test_across_notebooks.py."""

from __future__ import annotations

import pytest

from boundary_helpers import check_across
from conftest import ROOT
from course_lib.workbook import manifest, runner
from course_lib.workbook.ids import ExerciseId

ANSWERS = ROOT / manifest.ANSWERS
IN_PROCESS_ONLY = {"ex_06_3_memo_by_server_id"}
"""Kept answers judged in process only, each an open finding (issue 29): across the boundary every call lends the
kernel new server proxies, so a memo keyed on id(server) hits only when a dead proxy's id is reused, and whether the
kernel sees a stale figure depends on what ran before it there (alone it passed 6.3; after the other answers, failed)."""
KEPT = [path for path in sorted((ANSWERS / "right").glob("ex_*.py")) + sorted((ANSWERS / "wrong").glob("ex_*.py"))
        if path.stem not in IN_PROCESS_ONLY]


def expected_words(path) -> str:
    """The words a kept wrong answer's failure must contain (its EXPECT), read without running the answer."""
    import ast

    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "EXPECT" for t in node.targets):
            return ast.literal_eval(node.value)
    raise LookupError(f"{path.name} has no EXPECT")


@pytest.fixture(scope="module")
def learner(tmp_path_factory):
    """One confined kernel with the grader's agent, shared by every kept answer; its course_lib is the copy a graded
    kernel gets (hints cut, checker modules cut to what runs in the kernel)."""
    from course_lib.workbook import release

    folder = tmp_path_factory.mktemp("kept")
    release.copy_package(folder / "course" / "course_lib", kernel=True)
    with runner.learner_kernel(folder, package=folder / "course" / "course_lib") as (running, bridge):
        assert running.run("from course_lib import checks, hints, show, wire", 120).status == "ok"
        yield running, bridge


@pytest.mark.parametrize("path", KEPT, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_a_kept_answer_is_judged_across_the_boundary_as_in_process(path, learner):
    running, bridge = learner
    exercise = ExerciseId.from_answer_file(path.stem)[0]
    found = check_across(running, bridge, path)
    if path.parent.name == "right":
        assert found.status == "passed", found.message
        return
    assert found.status == "failed" and found.message.startswith(f"Exercise {exercise}: "), found.message
    expected = expected_words(path)
    expected = expected if isinstance(expected, tuple) else (expected,)  # a tuple: any of them
    assert any(words in found.message for words in expected) and exercise.hint_call in found.message, found.message
