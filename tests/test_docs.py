"""README, CI script and lesson notebooks agree with each other and with the lesson skeleton."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from conftest import ROOT, wait_until

LESSONS = sorted((ROOT / "notebooks").glob("*.ipynb"))
README = (ROOT / "README.md").read_text(encoding="utf-8")
OPEN_COMMAND = "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/jupyter lab"
TEST_COMMAND = 'python3 -m venv .venv && .venv/bin/pip install -e ".[test,postgres]" && .venv/bin/pytest'


def test_readme_has_the_two_commands_and_ci_runs_the_test_one():
    assert OPEN_COMMAND in README and TEST_COMMAND in README
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    install, run = TEST_COMMAND.rsplit(" && ", 1)  # CI installs, then runs the tests with no network at all
    assert install in ci and f"exec {run}" in ci and "unshare -n" in ci


def test_readme_lesson_table_is_the_manifest_in_order():
    from course_lib.workbook import manifest

    rows = re.findall(r"^\| (\d\d) \| (.+?) \| (\d+) min \| (\d+) min \|$", README, re.M)
    assert rows == [(lesson.number, lesson.title, str(lesson.teaching), str(lesson.exercise_minutes))
                    for lesson in manifest.lessons()]


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_lesson_follows_the_skeleton(path):
    from course_lib.workbook import manifest

    notebook = nbformat.read(path, as_version=4)
    meta = notebook.metadata["course"]
    assert path.name.startswith(meta["lesson"] + "_")
    assert set(meta) == {"lesson", "objectives", "keypoints"}  # title and minutes live in the manifest only
    assert 2 <= len(meta["objectives"]) <= 4 and len(meta["keypoints"]) == len(meta["objectives"])
    first = notebook.cells[0].source
    assert first.startswith(f"# {meta['lesson']} · {manifest.lesson(meta['lesson']).title}")
    assert "**You will be able to…**" in first
    assert len(re.findall(r"^\d\. ", first, re.M)) == len(meta["objectives"])
    text = "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "markdown")
    keypoints = text.split("## Key points", 1)[1].split("##", 1)[0]
    assert len(re.findall(r"^\d\. ", keypoints, re.M)) == len(meta["objectives"])
    assert "## Glossary" in text


@pytest.mark.parametrize("folder", ["notebooks", "solutions"])
def test_stored_notebooks_are_executed_in_order_without_unexpected_errors(folder):
    for path in sorted((ROOT / folder).glob("*.ipynb")):
        code = [c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]
        assert [c.execution_count for c in code] == list(range(1, len(code) + 1)), path.name
        for cell in code:
            if "raises-exception" not in cell.metadata.get("tags", []):
                assert all(o.output_type != "error" for o in cell.outputs), (path.name, cell.source[:60])


def test_exercise_notebooks_ship_without_outputs():
    for path in sorted((ROOT / "exercises").glob("*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "code":
                assert cell.outputs == [] and cell.execution_count is None, path.name


def test_the_open_command_starts_jupyterlab_on_lesson_00_with_the_course_as_root(tmp_path):
    """Run the README's JupyterLab part for real, with a stand-in browser that records the page it opens. This
    environment is an editable install, which leaves out the settings `pip install .` puts in etc/jupyter: here
    JUPYTER_CONFIG_PATH points at that file instead (tests/test_first_start.py checks the wheel installs it)."""
    import os
    import shlex
    import subprocess
    import sys

    jupyter_part = OPEN_COMMAND.split("&& ")[-1].replace(".venv/bin/jupyter", "")
    recorder = tmp_path / "browser.sh"
    recorder.write_text(f"#!/bin/sh\necho \"$@\" > {tmp_path / 'opened.txt'}\n")
    recorder.chmod(0o755)
    env = dict(os.environ, BROWSER=str(recorder), JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"),
               JUPYTER_CONFIG_DIR=str(tmp_path / "config"), JUPYTER_CONFIG_PATH=str(ROOT / "course_lib" / "jupyter"))
    args = [sys.executable, "-m", "jupyter", *shlex.split(jupyter_part), "--allow-root", "--port=0",
            "--ServerApp.port_retries=0"]
    lab = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        wait_until((tmp_path / "opened.txt").exists, "jupyter lab opening lesson 00 in the stand-in browser", lab)
        opened = (tmp_path / "opened.txt").read_text().strip()
        page = Path(opened.removeprefix("file://")).read_text()
        assert "lab/tree/notebooks/00_start_here.ipynb" in page
    finally:
        lab.terminate()
        log = lab.communicate(timeout=15)[1]
    assert f"Serving notebooks from local directory: {ROOT}" in log


def _readme_block(language: str, containing: str) -> str:
    blocks = re.findall(rf"```{language}\n(.*?)```", README, re.S)
    return next(block for block in blocks if containing in block)


def _lists_tools(command: str, args: list[str], cwd, env: dict) -> list[str]:
    from mcp import StdioServerParameters

    from course_lib import wire

    params = StdioServerParameters(command=command, args=args, cwd=str(cwd), env=env)

    async def go() -> list[str]:
        async with wire.connect(params, wire.HANDSHAKE) as client:
            return [tool.name for tool in (await client.list_tools()).tools]

    return wire.run_sync(go)


def test_the_readme_host_entry_and_inspector_commands_start_a_server_that_lists_its_tools(tmp_path):
    import json
    import shlex
    import sys

    course = str(Path(sys.executable).with_name("course"))  # the venv's course script, as the README says
    clean = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}  # what a host gives a server: not the venv, not ROOT
    entry = json.loads(_readme_block("json", "mcpServers"))["mcpServers"]["course-incidents"]
    assert entry["command"].endswith("/.venv/bin/course")
    names = _lists_tools(course, entry["args"], tmp_path, clean)
    assert names[:3] == ["search_incidents", "get_incident", "add_incident_note"]
    for line in _readme_block("bash", "inspector").splitlines():
        words = shlex.split(line)
        server = words[words.index(next(w for w in words if w.endswith("/.venv/bin/course"))):]
        args = server[1:server.index("--method")] if "--method" in server else server[1:]
        assert _lists_tools(course, args, tmp_path, clean) == ["weather", "get_daily_forecast"]
