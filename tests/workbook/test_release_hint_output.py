"""A release's saved lesson output agrees with its hints (walkthrough 2, K1): the course's lesson 00 shows
"Hint 1 of 3", a release keeps 2 levels by default (`--hints -1`), and its `course hint 0.1 --level 3` says "hint 2
of 2 was the last". The release prints that output again with its own course_lib."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT


def _levels(release, lesson: str, exercise: str) -> int:
    """How many hint levels the release's checker module keeps for `exercise` (read from its source)."""
    tree = ast.parse((release / "course_lib" / "checks" / f"l{lesson}.py").read_text(encoding="utf-8"))
    node = next(n for n in tree.body if isinstance(n, (ast.Assign, ast.AnnAssign))
                and getattr(n.targets[0] if isinstance(n, ast.Assign) else n.target, "id", "") == "HINTS")
    return len(ast.literal_eval(node.value)[exercise])


@pytest.mark.parametrize("hints", [None, "1"])
def test_the_released_lesson_00_hint_output_counts_the_releases_levels(tmp_path, hints):
    release = tmp_path / "release"
    made = subprocess.run([sys.executable, "-m", "course_lib.cli", "release", str(release),
                           *(["--hints", hints] if hints else [])], cwd=ROOT, capture_output=True, text=True,
                          timeout=600, env={**os.environ})
    assert made.returncode == 0, made.stderr
    total = _levels(release, "00", "0.1")
    assert total == (2 if hints is None else 1)
    lesson = json.loads((release / "notebooks" / "00_start_here.ipynb").read_text(encoding="utf-8"))
    (cell,) = [c for c in lesson["cells"] if c["cell_type"] == "code" and 'hints.show("0.1")' in "".join(c["source"])]
    shown = "".join("".join(output.get("text", "")) for output in cell["outputs"])
    assert shown.startswith(f"Hint 1 of {total} "), shown
    assert " of 3" not in shown
    course = json.loads((ROOT / "notebooks" / "00_start_here.ipynb").read_text(encoding="utf-8"))
    assert [c for c in course["cells"] if c["cell_type"] == "markdown"] == [
        c for c in lesson["cells"] if c["cell_type"] == "markdown"]  # only that output changes
