"""A check cell run before its exercise cell, in a learner's own kernel (a real IPython kernel started as JupyterLab
starts one): the ⏳ status that says which cell to run, never a red NameError; any other NameError stays an error."""

from __future__ import annotations

import os

import pytest

from conftest import ROOT
from course_lib.workbook import build

LESSON = ROOT / "exercises" / "01_bad_tool_rewrite.ipynb"


@pytest.fixture(scope="module")
def kernel():
    from jupyter_client.manager import start_new_kernel

    env = {name: value for name, value in os.environ.items()
           if name not in ("COURSE_STRICT_CHECKS", "COURSE_OUTCOMES", "PYTEST_CURRENT_TEST")}
    env["JPY_SESSION_NAME"] = str(LESSON)  # what JupyterLab sets: this is a learner's own kernel
    manager, client = start_new_kernel(kernel_name="python3", cwd=str(LESSON.parent), env=env)
    try:
        yield client
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def run(client, source: str) -> list[dict]:
    """Run a cell; its outputs as IOPub messages (display data, streams, errors)."""
    found: list[dict] = []
    client.execute_interactive(source, output_hook=lambda message: found.append(message), timeout=120)
    return [message for message in found if message["msg_type"] in ("display_data", "stream", "error")]


def cell(tag: str, exercise_id: str | None = None) -> str:
    cells = build.read(LESSON).cells
    if exercise_id:
        index = next(i for i, c in enumerate(cells) if c.metadata.get("exercise", {}).get("id") == exercise_id)
        return next(c for c in cells[index + 1:] if tag in c.metadata.get("tags", [])).source
    return next(c for c in cells if tag in c.metadata.get("tags", [])).source


def test_a_check_cell_run_before_its_exercise_cell_says_to_run_that_cell_first(kernel):
    from course_lib.checks import core

    assert run(kernel, cell("setup")) == []
    (shown,) = run(kernel, cell("check", "1.1"))
    assert shown["msg_type"] == "display_data", shown
    assert shown["content"]["data"]["text/plain"] == (
        "⏳ Exercise 1.1: run the exercise cell above first (build_clock_server is not defined yet).\n"
        '   Stuck? hints.show("1.1")')
    border = core._STYLE["not done"][0]  # the stub's ⏳ box: the same colours
    assert f"border-left:4px solid {border}" in shown["content"]["data"]["text/html"]
    (summary,) = run(kernel, 'checks.summary("01")')
    assert "0 of 4 done; next: 1.1" in str(summary["content"])


def test_any_other_name_error_is_still_an_error(kernel):
    run(kernel, cell("setup"))
    (error,) = run(kernel, "print(not_a_name_anywhere)")
    assert error["msg_type"] == "error" and error["content"]["ename"] == "NameError"
    run(kernel, "def build_clock_server():\n    raise NotImplementedError('x')")
    waiting, error = run(kernel, "checks.ex_01_1(build_clock_server)\nprint(after_the_check)")
    assert waiting["content"]["data"]["text/plain"].startswith("⏳ Exercise 1.1 is not done yet")
    assert error["msg_type"] == "error" and "after_the_check" in error["content"]["evalue"]
