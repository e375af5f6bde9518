"""GitHub Classroom's points for a student repository: one test per exercise, one point each.

`python -m course_lib.workbook.classroom exercises/*.ipynb` (the release's workflow runs it) checks each notebook
with `course check --json` (the course's own check cells, across the grading boundary, in the sandbox), appends
each notebook's table to $GITHUB_STEP_SUMMARY, and writes the results in the shape GitHub Classroom's grading
reporter (`classroom-resources/autograding-grading-reporter`) reads: base64 JSON as the step output `result`. A
partly done repository gets a point for each exercise that passed, of every exercise in it.

The reporter (its source, src/main.js) fails the workflow run when a runner's overall `status` is "fail" or
"error", and sums the points from the tests' scores (src/notify-classroom.js: a notice "Points N/M", titled
"Autograding complete"). So the overall status here is "fail" only when an exercise the student has attempted does not pass: an
exercise still holding its stub ("not done") scores 0 but leaves the run green, and a repository fresh from the
template is green with 0 points. The run is feedback: a repository's owner controls its workflow, so grades that
count come from `course grade`.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from pathlib import Path

from course_lib.workbook.outcomes import Outcome, for_grader

UNTOUCHED = "not done"
"""The status of an exercise that still holds its stub: 0 points, and not a reason for a red run."""
CHECK_SECONDS = 1800
"""How long one notebook's `course check` may take before its exercises count as failed."""


def results(checked: dict[str, list[Outcome] | str]) -> dict:
    """The grading reporter's results for each notebook's outcomes (or, for a notebook that could not be checked,
    the one line that says why, which fails each of its exercises): one test per exercise, worth one point. The
    overall status fails only for an exercise attempted and not passed (any status but passed and not done)."""
    from course_lib.workbook import manifest, runner

    tests, wrong = [], False
    for notebook, found in checked.items():
        if isinstance(found, str):
            stem = runner.lesson_stem(Path(notebook))
            exercises = [str(e) for e in manifest.lesson(stem[:2]).exercises] if stem else ["*"]
            found = [Outcome(exercise, "unreadable", found) for exercise in exercises]
        for outcome in found:
            passed = outcome.status == "passed"
            wrong = wrong or outcome.status not in ("passed", UNTOUCHED)
            tests.append({"name": f"Exercise {outcome.exercise} ({Path(notebook).name})",
                          "status": "pass" if passed else "fail", "score": 1 if passed else 0,
                          "message": f"{outcome.symbol} {outcome.status}: {for_grader(outcome.message)}"[:1000],
                          "test_code": f"course check {notebook}", "filename": notebook, "line_no": 0,
                          "execution_time": ""})
    return {"version": 1, "status": "pass" if tests and not wrong else "fail", "max_score": len(tests),
            "tests": tests}


def check(notebook: str, summary: str | None) -> list[Outcome] | str:
    """`course check NOTEBOOK --json` in a process of its own: the outcomes, or the line that says why not."""
    course = Path(sys.executable).with_name("course.exe" if os.name == "nt" else "course")  # the installed command
    command = [str(course), "check", notebook, "--json",
               *(["--summary", summary] if summary else [])]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=CHECK_SECONDS)
    except subprocess.TimeoutExpired:
        return f"course check did not finish within {CHECK_SECONDS} s"
    except OSError:
        return f"{course} was not found: install the course (pip install .) with this Python first"
    try:
        return [Outcome(**found) for found in json.loads(done.stdout)]
    except (ValueError, TypeError):
        lines = (done.stderr or done.stdout).strip().splitlines()
        return lines[-1] if lines else f"course check stopped (exit {done.returncode})"


def main(notebooks: list[str]) -> int:
    """Check `notebooks`, print one line of points, and write the results where the workflow reads them."""
    summary = os.environ.get("GITHUB_STEP_SUMMARY") or None
    found = results({notebook: check(notebook, summary) for notebook in notebooks})
    encoded = base64.b64encode(json.dumps(found).encode("utf-8")).decode("ascii")
    output = os.environ.get("GITHUB_OUTPUT")
    if output:
        with open(output, "a", encoding="utf-8") as out:
            out.write(f"result={encoded}\n")
    else:
        print(json.dumps(found, ensure_ascii=False, indent=1))
    score = sum(test["score"] for test in found["tests"])
    print(f"{score} of {found['max_score']} exercises passed: {score} point(s) of {found['max_score']}")
    return 0 if found["tests"] else 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
