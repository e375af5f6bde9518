"""Exercise 0.1's text and its first hint call `show.as_json(tool)` (walkthrough 2, C8): after the exercise
notebook's own setup cell, as a learner runs it, every name they use is defined and shows the bounds."""

from __future__ import annotations

import re

import nbformat
from nbclient import NotebookClient

from conftest import ROOT
from course_lib import hints


def test_the_names_exercise_0_1_and_its_first_hint_use_exist_after_the_setup_cell():
    notebook = nbformat.read(ROOT / "exercises" / "00_start_here.ipynb", as_version=4)
    setup = next(cell for cell in notebook.cells if "setup" in cell.metadata.get("tags", []))
    told = "".join(cell.source for cell in notebook.cells if cell.cell_type == "markdown") + hints.levels("0.1")[0]
    calls = sorted(set(re.findall(r"show\.as_json\(\w+\)", told)))
    assert calls == ["show.as_json(tool)"]
    run = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(setup.source),
                                          *(nbformat.v4.new_code_cell(call) for call in calls)])
    NotebookClient(run, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}).execute()
    shown = "".join(output.get("data", {}).get("text/plain", "") for output in run.cells[-1].outputs)
    assert '"minimum"' in shown and '"maximum"' in shown and "get_daily_forecast" in shown
