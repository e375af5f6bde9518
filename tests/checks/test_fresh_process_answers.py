"""Answers the checks rebuild in fresh processes (6.2, 7.3) pass with a helper defined beside the function,
whether the learner's code lives in a module they import or in a notebook cell: the fresh process gets the
function's source and the sources of the helpers beside it, never an import of the learner's own module."""

from __future__ import annotations

import importlib
import shutil

import nbformat
import pytest

from conftest import ROOT, errors_of, run_notebook
from course_lib import checks

HELPER_ANSWERS = [("6.2", "ex_06_2_helper"), ("7.3", "ex_07_3_recursive_canonical")]
"""Kept right answers whose function calls a helper defined next to it."""


@pytest.mark.parametrize("exercise, stem", HELPER_ANSWERS, ids=lambda value: str(value))
def test_a_helper_beside_the_function_in_an_imported_module(exercise, stem, tmp_path, monkeypatch, capsys):
    name = f"learner_{stem}"
    shutil.copy(ROOT / "tests" / "answers" / "right" / f"{stem}.py", tmp_path / f"{name}.py")
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module(name)  # a real module: in sys.modules, with a file, importable only here
    try:
        checks.registered(exercise)(module.answer)
    finally:
        monkeypatch.delitem(__import__("sys").modules, name)
    assert capsys.readouterr().out.startswith(f"✅ Exercise {exercise} passed: ")


@pytest.mark.parametrize("exercise, stem", HELPER_ANSWERS, ids=lambda value: str(value))
def test_a_helper_beside_the_function_in_a_notebook_cell(exercise, stem, tmp_path):
    source = (ROOT / "tests" / "answers" / "right" / f"{stem}.py").read_text(encoding="utf-8")
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("from course_lib import checks"),
        nbformat.v4.new_code_cell(source),
        nbformat.v4.new_code_cell(f"checks.registered({exercise!r})(answer)"),
    ])
    path = tmp_path / "answer.ipynb"
    nbformat.write(notebook, path)
    ran = run_notebook(path)
    assert [errors_of(cell) for cell in ran.cells] == [[], [], []]
    said = "".join(output.get("text", "") for output in ran.cells[2].outputs)
    assert said.startswith(f"✅ Exercise {exercise} passed: "), said
