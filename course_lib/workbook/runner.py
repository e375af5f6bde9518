"""Running notebooks: execute one in place (maintainers), or check one under nbval (learners, grading).

`check()` runs an exercise notebook under nbval in this process and returns one `Outcome` per
exercise. Each check records its own outcome as data (see `outcomes`); for a check cell that
stopped before its checker ran, the outcome comes from the cell's error output (`ename`, `evalue`).
"""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
from pathlib import Path

from course_lib.errors import BadFile
from course_lib.workbook import build, outcomes
from course_lib.workbook.outcomes import Outcome


def execute(path: Path, timeout: int = 120) -> None:
    """Run every cell of a notebook in a fresh kernel (cwd = its folder) and save the outputs.

    Cells tagged `raises-exception` may fail; any other failure leaves the file untouched and
    raises `BadFile` naming the cell.
    """
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    notebook = build.read(path)
    client = NotebookClient(notebook, timeout=timeout, kernel_name="python3", allow_errors=False,
                            record_timing=False, resources={"metadata": {"path": str(path.parent)}})
    try:
        client.execute()
    except CellExecutionError as error:
        first_line = error.evalue.splitlines()[0] if error.evalue else ""
        raise BadFile(f"{path}: a cell raised {error.ename}: {first_line}"[:300]) from None
    import nbformat

    nbformat.write(notebook, path)


class _CellResults:
    """A pytest plugin that keeps, per nbval cell item, whether it passed and the error it raised (as data)."""

    def __init__(self) -> None:
        self.cells: dict[int, tuple[str, dict | None]] = {}

    def pytest_runtest_makereport(self, item, call) -> None:
        number = getattr(item, "cell_num", None)
        if number is None or call.when != "call":
            return
        errors = [out for out in (getattr(item, "test_outputs", None) or []) if out.get("output_type") == "error"]
        timed_out = bool(getattr(item.parent, "timed_out", False))
        status = "passed" if call.excinfo is None else "timeout" if timed_out else "failed"
        self.cells[number] = (status, errors[0] if errors else None)


def _without_outcome(exercise: str, status: str, error: dict | None) -> Outcome:
    """The outcome of a check cell whose checker recorded none (it never ran, or the cell was edited)."""
    if status == "timeout":
        return Outcome(exercise, "timeout", "the check cell did not finish in time")
    if error is not None:
        detail = f"{error.get('ename', 'Error')}: {error.get('evalue', '')}".strip()
        if error.get("ename") == "NameError":
            detail += " (run the exercise cell above the check first)"
        return Outcome(exercise, "failed", f"the check cell stopped before checking: {detail}")
    if status == "passed":
        return Outcome(exercise, "failed", "the check cell ran no check (was it edited?)")
    return Outcome(exercise, "skipped", "the check cell did not run")


def check(path: Path, timeout: int = 60) -> list[Outcome]:
    """Run a notebook under nbval (lax) and return each exercise's outcome, in notebook order."""
    import pytest

    notebook = build.read(path)
    pairs = build.exercise_pairs(notebook)
    results = _CellResults()
    with tempfile.TemporaryDirectory() as scratch:
        ini, record = Path(scratch) / "pytest.ini", Path(scratch) / "outcomes.jsonl"
        ini.write_text("[pytest]\n")
        args = [str(path.resolve()), "-c", str(ini), "--rootdir", scratch, "-p", "no:cacheprovider", "-q",
                "--color=no", "--nbval-lax", "--nbval-current-env", f"--nbval-cell-timeout={timeout}",
                "-p", "no:xdist"]
        saved = os.environ.get(outcomes.ENV)
        os.environ[outcomes.ENV] = str(record)
        try:
            with contextlib.redirect_stdout(io.StringIO()):  # the caller prints the outcomes
                pytest.main(args, plugins=[results])
        finally:
            if saved is None:
                os.environ.pop(outcomes.ENV, None)
            else:
                os.environ[outcomes.ENV] = saved
        recorded = {outcome.exercise: outcome for outcome in outcomes.read(record)}
    found = []
    for pair in pairs:
        exercise = str(pair.exercise.id)
        status, error = results.cells.get(pair.check_cell, ("skipped", None))
        outcome = recorded.get(exercise)
        if outcome is None or status == "timeout":
            outcome = _without_outcome(exercise, status, error)
        found.append(outcome)
    return found
