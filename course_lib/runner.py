"""Running notebooks: execute them in place (maintainers) and check them with nbval (learners)."""

from __future__ import annotations

import contextlib
import io
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

import nbformat

from course_lib.exercises import checked_exercise

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_TODO = re.compile(r"is not done yet: (.*?)\. Replace")
_ERROR_LINE = re.compile(r"^(\w+(?:Error|NotDone|Failed|Exception)\w*): (.*)$")


class NotebookProblem(ValueError):
    """A path that is not a readable notebook."""


def read_notebook(path: Path) -> nbformat.NotebookNode:
    """Read and validate a notebook; a one-line `NotebookProblem` otherwise."""
    if not path.exists():
        raise NotebookProblem(f"no such file: {path}")
    if path.is_dir() or path.suffix != ".ipynb":
        raise NotebookProblem(f"{path} is not a notebook (expected a .ipynb file)")
    try:
        notebook = nbformat.read(path, as_version=4)
        nbformat.validate(notebook)
    except Exception as error:  # nbformat raises several unrelated types for broken files
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise NotebookProblem(f"{path} is not a valid notebook: {first[:200]}") from None
    return notebook


def execute(path: Path, timeout: int = 120) -> None:
    """Run every cell of a notebook in a fresh kernel (cwd = its folder) and save the outputs.

    Cells tagged `raises-exception` may fail; any other failure leaves the file untouched and
    raises `NotebookProblem` naming the cell.
    """
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    notebook = read_notebook(path)
    client = NotebookClient(notebook, timeout=timeout, kernel_name="python3", allow_errors=False,
                            record_timing=False, resources={"metadata": {"path": str(path.parent)}})
    try:
        client.execute()
    except CellExecutionError as error:
        first_line = error.evalue.splitlines()[0] if error.evalue else ""
        raise NotebookProblem(f"{path}: a cell raised {error.ename}: {first_line}"[:300]) from None
    nbformat.write(notebook, path)


@dataclass(frozen=True)
class CheckOutcome:
    """The result of one check cell."""

    exercise: str
    status: str  # "passed", "not done", "failed", "skipped"
    detail: str


class _Collector:
    """A pytest plugin that keeps the outcome of every nbval cell item."""

    def __init__(self) -> None:
        self.reports: dict[int, tuple[str, str]] = {}

    def pytest_runtest_logreport(self, report) -> None:
        if report.when == "call" or report.outcome != "passed":
            index = int(report.nodeid.rsplit("Cell ", 1)[-1]) if "Cell " in report.nodeid else -1
            self.reports[index] = (report.outcome, _ANSI.sub("", report.longreprtext or ""))


def _last_error(text: str) -> tuple[str, str]:
    for line in reversed(text.splitlines()):
        match = _ERROR_LINE.match(line.strip())
        if match:
            return match.group(1), match.group(2)
    lines = [line for line in text.splitlines() if line.strip()]
    return "", lines[-1].strip() if lines else "failed"


def check(path: Path, timeout: int = 60) -> list[CheckOutcome]:
    """Run a notebook under nbval (lax) and report each exercise's check cell."""
    import pytest

    notebook = read_notebook(path)
    code_cells = [cell for cell in notebook.cells if cell.cell_type == "code"]
    targets = {index: checked_exercise(cell) for index, cell in enumerate(code_cells) if checked_exercise(cell)}
    collector = _Collector()
    with tempfile.TemporaryDirectory() as scratch:
        ini = Path(scratch) / "pytest.ini"
        ini.write_text("[pytest]\n")
        args = [str(path.resolve()), "-c", str(ini), "--rootdir", scratch, "-p", "no:cacheprovider", "-q",
                "--color=no", "--nbval-lax", "--nbval-current-env", f"--nbval-cell-timeout={timeout}"]
        with contextlib.redirect_stdout(io.StringIO()):  # the table below is the report
            pytest.main(args, plugins=[collector])
    outcomes = []
    for index, exercise_id in targets.items():
        outcome, text = collector.reports.get(index, ("skipped", "the check cell did not run"))
        if outcome == "passed":
            outcomes.append(CheckOutcome(exercise_id, "passed", "its check cell ran without error"))
        elif outcome == "failed":
            kind, message = _last_error(text)
            if kind == "ExerciseNotDone":
                todo = _TODO.search(message)
                outcomes.append(CheckOutcome(exercise_id, "not done", todo.group(1) if todo else message))
            else:
                outcomes.append(CheckOutcome(exercise_id, "failed", message))
        else:
            outcomes.append(CheckOutcome(exercise_id, "skipped", text.strip() or outcome))
    return outcomes
