"""What leaves the course folder, and the engines classrooms use: the student release, the Gradescope autograder
(run on a fake /autograder tree), the GitHub workflows (actionlint), Binder (repo2docker) and the devcontainer."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import nbformat
import pytest

from conftest import ROOT
from course_lib.workbook import build, release, runner

BIN = Path(sys.executable).parent
LESSON = "01_bad_tool_rewrite.ipynb"


def course(*args: str, cwd: Path = ROOT, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "course_lib.cli", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=600, env={**os.environ, **(env or {})})


def _lines(text: str) -> str:
    return "\n".join(line.strip() for line in text.splitlines() if line.strip())


def solution_regions() -> list[str]:
    """Every solution region of two lines or more (what a release must never contain), from solutions/."""
    import re

    found = []
    for path in sorted((ROOT / "solutions").glob("*.ipynb")):
        for cell in build.read(path).cells:
            for body in re.findall(r"### BEGIN SOLUTION[^\n]*\n(.*?)### END SOLUTION", cell.source, re.S):
                if len(_lines(body).splitlines()) >= 2:
                    found.append(_lines(body))
    return found


@pytest.fixture(scope="module")
def released(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("release") / "workbook"
    result = course("release", str(out))
    assert result.returncode == 0, result.stderr
    return out


def _without_hint_output(path):
    from course_lib.workbook import release

    notebook = json.loads(path.read_text(encoding="utf-8"))
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code" and release._shows_hints("".join(cell["source"])):
            cell["outputs"] = []
    return notebook


def test_a_release_has_the_lessons_exercises_and_package_and_nothing_of_the_solutions(released):
    names = {path.relative_to(released).as_posix() for path in released.rglob("*") if path.is_file()}
    assert {"README.md", "pyproject.toml", "course_lib/__init__.py", f"exercises/{LESSON}", f"notebooks/{LESSON}",
            f".course/reference/{LESSON}", ".github/workflows/course-check.yml", "binder/postBuild",
            ".devcontainer/devcontainer.json"} <= names
    assert not any(name.startswith(("solutions/", "tests/", ".ci/", ".git/")) for name in names)
    for path in (ROOT / "exercises").glob("*.ipynb"):
        assert (released / "exercises" / path.name).read_bytes() == path.read_bytes()
    for path in (ROOT / "notebooks").glob("*.ipynb"):  # the same but for the output of hints.show (its hint count)
        assert _without_hint_output(released / "notebooks" / path.name) == _without_hint_output(path)
    for path in (ROOT / "exercises").glob("*.ipynb"):
        assert (released / runner.REFERENCE / path.name).read_text() == path.read_text()
    files = {path: path.read_text(encoding="utf-8", errors="replace") for path in released.rglob("*")
             if path.is_file()}
    assert not any("### BEGIN SOLUTION" in text for path, text in files.items() if path.suffix == ".ipynb")
    texts = [_lines(text.replace("\\n", "\n").replace('\\"', '"')) for text in files.values()]  # JSON too
    regions = solution_regions()
    assert len(regions) >= 25
    leaked = [region for region in regions if any(region in text for text in texts)]
    assert leaked == [], leaked[:3]


def _commands(readme: str) -> list[str]:
    """Every command line of the README's ```bash blocks, in order."""
    import re

    return [line.strip() for block in re.findall(r"```bash\n(.*?)```", readme, re.S)
            for line in block.splitlines() if line.strip() and not line.strip().startswith("#")]


def test_the_release_readme_is_for_a_student(released):
    readme = (released / "README.md").read_text(encoding="utf-8")
    for topic in ("## Open the course", "## Do an exercise", "## Check your work", "## Get a hint",
                  "## What a check runs, and where", 'hints.show("1.2")', ".course/reference/"):
        assert topic in readme, topic
    for lesson in (ROOT / "notebooks").glob("*.ipynb"):
        assert f"(notebooks/{lesson.name})" in readme
    maintainers = ("course build", "course grade", "solutions/", "pytest", "Not protected", "without calling",
                   "maintain", "course release", "[test", "postgres")
    assert [word for word in maintainers if word in readme] == []


def test_the_release_readme_commands_work_as_written(released, tmp_path):
    """Every command of the student README, run as written in the release folder. `.venv` is this test's own
    environment (installing anew needs the package index); `pip install .` installs JupyterLab's settings, which
    an editable install leaves out, so here JUPYTER_CONFIG_PATH points at the file it would install."""
    import re
    import time
    import urllib.request

    commands = _commands((released / "README.md").read_text(encoding="utf-8"))
    assert commands[0] == "python3 -m venv .venv && .venv/bin/pip install ."
    (released / ".venv").symlink_to(Path(sys.prefix), target_is_directory=True)
    env = {**os.environ, "JUPYTER_CONFIG_PATH": str(ROOT / "course_lib" / "jupyter"), "BROWSER": "true",
           "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"), "JUPYTER_DATA_DIR": str(tmp_path / "data")}
    ran = []
    try:
        for command in commands[1:]:
            if command.startswith(".venv/bin/jupyter lab"):
                import socket

                with socket.socket() as probe:
                    probe.bind(("127.0.0.1", 0))
                    port = probe.getsockname()[1]
                if os.geteuid() == 0 and "--allow-root" not in command:
                    # Walkthrough 5, M4: as root JupyterLab refuses to start, so the README says what to type then,
                    # and that command runs here too (next).
                    refused = subprocess.run([*command.split(), f"--port={port}"], cwd=released, env=env,
                                             capture_output=True, text=True, timeout=300)
                    said = refused.stdout + refused.stderr
                    assert refused.returncode != 0 and "Running as root is not recommended" in said, said[-500:]
                    assert f"{command} --allow-root" in commands
                    ran.append(command)
                    continue
                lab = subprocess.Popen([*command.split(), f"--port={port}"], cwd=released, env=env,
                                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                try:
                    url = None
                    for line in lab.stdout:  # the address JupyterLab prints, as the README says
                        found = re.search(r"(http://127\.0\.0\.1:\d+/\S+)", line)
                        if found:
                            url = found.group(1)
                            break
                    assert url and "/lab/tree/notebooks/00_start_here.ipynb?token=" in url, url
                    for _ in range(100):
                        try:
                            assert urllib.request.urlopen(url, timeout=5).status == 200
                            break
                        except OSError:
                            time.sleep(0.1)
                finally:
                    lab.terminate()
                    lab.wait(30)
                ran.append(command)
                continue
            result = subprocess.run(command, shell=True, cwd=released, env=env, capture_output=True, text=True,
                                    timeout=600)
            assert "Traceback" not in result.stderr, (command, result.stderr[-500:])
            if command.endswith("course check 01"):  # nothing solved yet: exit 1, every exercise not done
                assert result.returncode == 1 and "0 of 4 exercises passed" in result.stdout, result.stdout
            else:
                assert result.returncode == 0, (command, result.stdout[-500:], result.stderr[-500:])
            ran.append(command)
    finally:
        (released / ".venv").unlink()
    assert ran == commands[1:]
    assert any("course doctor" in command for command in commands)


def test_the_release_pyproject_is_the_student_install_and_pytest_runs_there_without_the_test_extra(released):
    """No test extra and no test settings: with the course's `-n auto`, pytest without xdist (a student's install)
    stops on "unrecognized arguments"; here it starts, finds no tests and says so (exit 5)."""
    import tomllib

    ours = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    theirs = tomllib.loads((released / "pyproject.toml").read_text(encoding="utf-8"))
    assert "test" in ours["project"]["optional-dependencies"] and "pytest" in ours["tool"]  # what is cut
    assert "test" not in theirs["project"].get("optional-dependencies", {})
    assert "pytest" not in theirs["tool"]
    assert theirs["project"]["dependencies"] == ours["project"]["dependencies"]
    assert theirs["project"]["scripts"] == ours["project"]["scripts"]
    assert theirs["tool"]["setuptools"] == ours["tool"]["setuptools"]  # the package, its data, JupyterLab settings
    assert set(theirs["project"]["optional-dependencies"]) == set(ours["project"]["optional-dependencies"]) - {"test"}
    ran = subprocess.run([str(BIN / "pytest"), "-p", "no:xdist", "-p", "no:cacheprovider"], cwd=released,
                         capture_output=True, text=True, timeout=300)
    assert ran.returncode == 5 and "no tests ran" in ran.stdout, (ran.stdout[-500:], ran.stderr[-500:])


@pytest.mark.parametrize("editable", [True, False], ids=["pip install -e .", "pip install ."])
def test_installing_a_release_leaves_no_build_files_beside_the_notebooks(released, tmp_path, editable):
    """`pip install .` (the README) and `pip install -e .` (the Classroom workflow, Binder): setuptools' build/
    and *.egg-info go under .course/, which .gitignore covers. Needs the package index for the build backend."""
    copy = tmp_path / "workbook"
    shutil.copytree(released, copy)
    before = sorted(path.name for path in copy.iterdir())
    subprocess.run([sys.executable, "-m", "venv", str(tmp_path / "venv")], check=True, timeout=300)
    done = subprocess.run([str(tmp_path / "venv" / "bin" / "pip"), "install", "--quiet", "--no-deps",
                           *(["-e"] if editable else []), "."], cwd=copy, capture_output=True, text=True, timeout=600)
    if done.returncode and "setuptools" in done.stderr and "satisfies the requirement" in done.stderr:
        pytest.skip("the package index is out of reach: pip cannot fetch the build backend (setuptools)")
    assert done.returncode == 0, done.stderr[-800:]
    assert sorted(path.name for path in copy.iterdir()) == before  # no build/, no *.egg-info at the top
    left = {path.name for path in (copy / ".course").iterdir()}
    assert "mcp_tool_design_workbook.egg-info" in left and left <= {"reference", "build",
                                                                      "mcp_tool_design_workbook.egg-info"}
    assert not any(path.suffix == ".egg-info" or path.name == "build" for path in copy.rglob("*")
                   if ".course" not in path.relative_to(copy).parts)
    ignored = subprocess.run(["git", "init", "-q", "."], cwd=copy, timeout=60), subprocess.run(
        ["git", "status", "--porcelain", "--ignored", ".course"], cwd=copy, capture_output=True, text=True, timeout=60)
    assert "!! .course/mcp_tool_design_workbook.egg-info/" in ignored[1].stdout, ignored[1].stdout


def test_course_check_in_a_release_takes_the_check_cells_from_its_reference_copy(released):
    notebook = nbformat.read(released / "exercises" / LESSON, as_version=4)
    check = next(cell for cell in notebook.cells if "checks.ex_01_3(" in cell.source)
    check.source = "print('✅ Exercise 1.3 passed')"
    nbformat.write(notebook, released / "exercises" / LESSON)
    result = course("check", "01", "--json", cwd=released)
    found = {row["exercise"]: row["status"] for row in json.loads(result.stdout)}
    assert found == {"1.1": "not done", "1.2": "not done", "1.3": "edited", "1.4": "not done"}


def test_in_a_release_lessons_works_and_instructor_commands_say_they_are_for_instructors(released, tmp_path):
    lessons = course("lessons", cwd=released / "exercises")
    assert lessons.returncode == 0 and lessons.stdout.startswith("00  ") and "total: " in lessons.stdout
    for args in (("build",), ("grade", str(released / "exercises")), ("release", str(tmp_path / "out")),
                 ("autograder", "gradescope", str(tmp_path / "a.zip")), ("guide",)):
        result = course(*args, cwd=released)
        assert result.returncode == 2 and "Traceback" not in result.stderr
        assert result.stderr.strip() == (f"course: `course {args[0]}` is for instructors: it needs the instructor's "
                                         "course folder, not a student's copy"), result.stderr
        assert "solutions" not in result.stderr


def test_a_release_refuses_a_folder_that_is_not_empty(tmp_path):
    (tmp_path / "keep.txt").write_text("mine")
    result = course("release", str(tmp_path))
    assert result.returncode == 2 and result.stderr.strip() == (
        f"course: {tmp_path} already exists and is not an empty folder: choose a new one")


def test_a_release_refuses_a_clone_whose_exercises_hold_work_and_never_eats_it(tmp_path):
    clone = tmp_path / "clone"
    for folder in ("solutions", "exercises", "notebooks", "course_lib"):
        shutil.copytree(ROOT / folder, clone / folder, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(ROOT / "pyproject.toml", clone / "pyproject.toml")
    worked = clone / "exercises" / LESSON
    notebook = json.loads(worked.read_text())
    cell = next(cell for cell in notebook["cells"] if cell["metadata"].get("exercise"))
    cell["source"] = "".join(cell["source"]).replace("raise NotImplementedError(", "return 42  # mine\n    (", 1)
    worked.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n")
    mine = worked.read_text()
    result = course("release", str(tmp_path / "out"), cwd=clone)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f"exercises/{LESSON} has edits" in result.stderr and "--force" in result.stderr
    assert worked.read_text() == mine and not (tmp_path / "out").exists()
    forced = course("release", str(tmp_path / "forced"), "--force", cwd=clone)
    assert forced.returncode == 0, forced.stderr
    assert worked.read_text() == mine  # the clone's work is still there
    assert (tmp_path / "forced" / "exercises" / LESSON).read_text() == (ROOT / "exercises" / LESSON).read_text()


def test_a_release_of_a_clone_with_stale_exercises_ships_them_fresh_from_solutions(tmp_path):
    clone = tmp_path / "clone"
    for folder in ("solutions", "exercises", "notebooks", "course_lib"):
        shutil.copytree(ROOT / folder, clone / folder, ignore=shutil.ignore_patterns("__pycache__"))
    solution = clone / "solutions" / LESSON
    solution.write_text(solution.read_text().replace("Exercise ", "Exercise  ", 1))
    result = course("release", str(tmp_path / "out"), cwd=clone)
    assert result.returncode == 0, result.stderr
    shipped = (tmp_path / "out" / "exercises" / LESSON).read_text()
    assert shipped == build.render(build.student_version(build.read(solution))) != (clone / "exercises" / LESSON).read_text()


# --- Gradescope ----------------------------------------------------------------------------------------


GRADESCOPE_RESULTS = {
    "type": "object",
    "properties": {
        "score": {"type": "number"}, "execution_time": {"type": "number"}, "output": {"type": "string"},
        "visibility": {"enum": ["hidden", "after_due_date", "after_published", "visible"]},
        "stdout_visibility": {"enum": ["hidden", "after_due_date", "after_published", "visible"]},
        "extra_data": {"type": "object"},
        "tests": {"type": "array", "items": {
            "type": "object",
            "properties": {"score": {"type": "number"}, "max_score": {"type": "number"},
                           "status": {"enum": ["passed", "failed"]}, "name": {"type": "string"},
                           "number": {"type": "string"}, "output": {"type": "string"},
                           "tags": {"type": "array", "items": {"type": "string"}},
                           "visibility": {"enum": ["hidden", "after_due_date", "after_published", "visible"]},
                           "extra_data": {"type": "object"}},
            "required": ["score", "max_score", "name", "output"],
            "additionalProperties": False}},
    },
    "anyOf": [{"required": ["score"]}, {"required": ["tests"]}],
    "additionalProperties": False,
}
"""Gradescope's documented results.json ("Autograder Specifications", gradescope-autograders.readthedocs.io):
a top-level score (optional when every test has one), execution_time, output, visibility, stdout_visibility,
extra_data, and tests with score, max_score, status, name, number, output, tags, visibility, extra_data."""


@pytest.fixture(scope="module")
def autograder(tmp_path_factory) -> Path:
    """A fake /autograder: the zip unpacked into source/, run_autograder beside it, this venv as venv/."""
    base = tmp_path_factory.mktemp("gradescope")
    archive = base / "autograder.zip"
    assert course("autograder", "gradescope", str(archive), "--lesson", "01").returncode == 0
    names = zipfile.ZipFile(archive).namelist()
    assert {"setup.sh", "run_autograder"} <= set(names)
    assert not any(name.startswith(("solutions/", "tests/")) for name in names)
    root = base / "autograder"
    zipfile.ZipFile(archive).extractall(root / "source")
    shutil.copy(root / "source" / "run_autograder", root / "run_autograder")
    (root / "run_autograder").chmod(0o755)
    (root / "venv").symlink_to(Path(sys.prefix))
    return root


@pytest.mark.parametrize("handed_in, score", [("solutions", 4.0), ("exercises", 0.0), ("broken", 0.0)])
def test_run_autograder_writes_gradescopes_results_json(autograder, handed_in, score):
    import jsonschema

    submission = autograder / "submission"
    shutil.rmtree(submission, ignore_errors=True)
    submission.mkdir()
    if handed_in == "broken":
        (submission / LESSON).write_text("{ not json")
    else:
        shutil.copy(ROOT / handed_in / LESSON, submission / LESSON)
    done = subprocess.run(["bash", str(autograder / "run_autograder")], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "AUTOGRADER_ROOT": str(autograder)})
    assert done.returncode == 0, done.stderr[-2000:]
    results = json.loads((autograder / "results" / "results.json").read_text(encoding="utf-8"))
    jsonschema.validate(results, GRADESCOPE_RESULTS)
    assert [test["number"] for test in results["tests"]] == ["1.1", "1.2", "1.3", "1.4"]
    assert results["score"] == score == sum(test["score"] for test in results["tests"])
    assert all(test["max_score"] == 1.0 for test in results["tests"])
    if handed_in == "broken":
        assert "is not a valid notebook" in results["output"]


def test_setup_sh_installs_the_course_and_needs_python_311(autograder):
    text = (autograder / "source" / "setup.sh").read_text()
    assert "bubblewrap" in text and "/autograder/venv/bin/pip install --quiet /autograder/source" in text
    assert "course doctor" in text and "(3, 11)" in text


# --- GitHub, Binder, Codespaces --------------------------------------------------------------------------


@pytest.mark.parametrize("workflow", [ROOT / ".github" / "workflows" / "tests.yml",
                                      release.TEMPLATES / "classroom.yml"], ids=lambda p: p.name)
def test_the_workflows_pass_actionlint(workflow):
    done = subprocess.run([str(BIN / "actionlint"), "-no-color", str(workflow)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_workflows_run_what_they_promise():
    import re

    tests = (ROOT / ".github" / "workflows" / "tests.yml").read_text()
    readme = (ROOT / "README.md").read_text()
    command = re.search(r"python3 -m venv \.venv && \.venv/bin/pip install -e \S+ && \.venv/bin/pytest", readme)
    assert command and f"run: {command.group(0)}" in tests  # the README's test command, word for word
    classroom = (release.TEMPLATES / "classroom.yml").read_text()
    assert "bubblewrap" in classroom and "on:\n  push:" in classroom


def test_the_classroom_workflow_reports_one_point_per_exercise_to_the_grading_reporter():
    """The step that checks the notebooks is the reporter's runner: the reporter reads <RUNNER>_RESULTS, and
    GitHub Classroom reads the points from the check run named "Autograding Tests" (which needs checks: write)."""
    import yaml

    workflow = yaml.safe_load((release.TEMPLATES / "classroom.yml").read_text())
    (job,) = workflow["jobs"].values()
    assert job["name"] == "Autograding Tests" and workflow["permissions"]["checks"] == "write"
    steps = {step.get("id"): step for step in job["steps"]}
    assert steps["course"]["run"] == "python -m course_lib.workbook.classroom exercises/*.ipynb"
    reporter = next(step for step in job["steps"] if "autograding-grading-reporter" in step.get("uses", ""))
    runners = [name.strip() for name in reporter["with"]["runners"].split(",")]
    assert runners == ["course"] and reporter["if"].startswith("always()")
    assert reporter["env"] == {f"{runner.upper()}_RESULTS": f"${{{{ steps.{runner}.outputs.result }}}}"
                               for runner in runners}


def test_classroom_results_give_a_partly_done_repository_its_points():
    from course_lib.workbook import classroom
    from course_lib.workbook.outcomes import Outcome

    found = classroom.results({
        "exercises/01_bad_tool_rewrite.ipynb": [
            Outcome("1.1", "passed", "the clock tool is named and described"),
            Outcome("1.2", "failed", 'Exercise 1.2: expected x; found y. Open hints.show("1.2") for a hint.'),
            Outcome("1.3", "not done", "Exercise 1.3 is not done yet: do it."),
            Outcome("1.4", "edited", "the check cell was changed")],
        "exercises/00_start_here.ipynb": "exercises/00_start_here.ipynb is not a notebook: it is not valid JSON"})
    assert found["max_score"] == 5 and found["status"] == "fail" and found["version"] == 1
    assert [(test["name"], test["score"]) for test in found["tests"]] == [
        ("Exercise 1.1 (01_bad_tool_rewrite.ipynb)", 1), ("Exercise 1.2 (01_bad_tool_rewrite.ipynb)", 0),
        ("Exercise 1.3 (01_bad_tool_rewrite.ipynb)", 0), ("Exercise 1.4 (01_bad_tool_rewrite.ipynb)", 0),
        ("Exercise 0.1 (00_start_here.ipynb)", 0)]
    assert [test["status"] for test in found["tests"]] == ["pass", "fail", "fail", "fail", "fail"]
    assert found["tests"][1]["message"] == "❌ failed: Exercise 1.2: expected x; found y."
    assert "not valid JSON" in found["tests"][4]["message"]
    every = classroom.results({"exercises/01_bad_tool_rewrite.ipynb": [Outcome("1.1", "passed", "ok")]})
    assert every["status"] == "pass" and every["tests"][0]["score"] == 1


@pytest.mark.parametrize("statuses, overall", [
    (["not done", "not done"], "pass"),  # a repository fresh from the template: green, 0 points
    (["passed", "not done"], "pass"),  # the assigned exercise done, the rest not started
    (["passed", "failed"], "fail"), (["not done", "edited"], "fail"), (["passed", "timeout"], "fail"),
    (["not done", "kernel died"], "fail"), (["not done", "skipped"], "fail")])
def test_classroom_run_is_red_only_for_an_attempted_exercise_that_does_not_pass(statuses, overall):
    """The reporter fails the run on the overall status alone (src/main.js): only an exercise a student attempted
    and did not pass makes it "fail"; the points still count every exercise."""
    from course_lib.workbook import classroom
    from course_lib.workbook.outcomes import Outcome

    found = classroom.results({"exercises/01_bad_tool_rewrite.ipynb": [
        Outcome(f"1.{index}", status, "x") for index, status in enumerate(statuses, 1)]})
    assert found["status"] == overall and found["max_score"] == 2
    assert sum(test["score"] for test in found["tests"]) == statuses.count("passed")
    assert classroom.results({"exercises/00_start_here.ipynb": "not valid JSON"})["status"] == "fail"


def test_the_classroom_step_in_a_release_writes_the_reporters_result(released, tmp_path):
    """In a release: lesson 00 solved, lesson 01 untouched. One point of five, the table in the step summary."""
    import base64

    copy = tmp_path / "workbook"
    shutil.copytree(released, copy)
    solved = build.read(ROOT / "solutions" / "00_start_here.ipynb")
    nbformat.write(solved, copy / "exercises" / "00_start_here.ipynb")
    output, summary = tmp_path / "output", tmp_path / "summary.md"
    done = subprocess.run([sys.executable, "-m", "course_lib.workbook.classroom", "exercises/00_start_here.ipynb",
                           f"exercises/{LESSON}"], cwd=copy, capture_output=True, text=True, timeout=900,
                          env={**os.environ, "GITHUB_OUTPUT": str(output), "GITHUB_STEP_SUMMARY": str(summary),
                               "PYTHONPATH": str(copy)})
    assert done.returncode == 0, done.stderr[-800:]
    assert done.stdout.strip().splitlines()[-1] == "1 of 5 exercises passed: 1 point(s) of 5"
    name, encoded = output.read_text().strip().split("=", 1)
    found = json.loads(base64.b64decode(encoded))
    assert name == "result" and found["max_score"] == 5 and sum(test["score"] for test in found["tests"]) == 1
    statuses = [test["message"].split(":", 1)[0].split(" ", 1)[-1] for test in found["tests"]]
    # lesson 01 untouched: its exercises are "not done", 0 points, and the run stays green. On a loaded machine a
    # check of the untouched notebook can time out instead (CI saw the run turn red with no reason kept): then the
    # run must be red, by the rule test_classroom_run_is_red_only_for_an_attempted_exercise_that_does_not_pass tests.
    green = all(status in ("passed", "not done") for status in statuses)
    assert found["status"] == ("pass" if green else "fail"), statuses
    assert [test["name"] for test in found["tests"] if test["score"]] == ["Exercise 0.1 (00_start_here.ipynb)"]
    assert "### 00_start_here.ipynb: 1 of 1 passed" in summary.read_text()
    assert f"### {LESSON}: 0 of 4 passed" in summary.read_text()


def test_check_appends_a_markdown_summary(tmp_path):
    summary = tmp_path / "summary.md"
    result = course("check", "solutions/01_bad_tool_rewrite.ipynb", "--summary", str(summary))
    assert result.returncode == 0
    lines = summary.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "### 01_bad_tool_rewrite.ipynb: 4 of 4 passed"
    assert lines[2:4] == ["|  | exercise | status | detail |", "|---|---|---|---|"]
    assert [line.split("|")[2].strip() for line in lines[4:8]] == ["1.1", "1.2", "1.3", "1.4"]


@pytest.mark.parametrize("where", ["course", "release"])
def test_repo2docker_builds_python_311_and_runs_postbuild_that_installs_and_checks(where, released):
    folder = ROOT if where == "course" else released
    done = subprocess.run([str(BIN / "jupyter-repo2docker"), "--no-build", "--debug", str(folder)],
                          capture_output=True, text=True, timeout=300)
    dockerfile = done.stdout + done.stderr
    assert "python=3.11" in dockerfile, dockerfile[-3000:]
    assert "RUN ./binder/postBuild" in dockerfile
    post = (folder / "binder" / "postBuild").read_text()
    assert "python -m pip install --no-cache-dir -e ." in post and post.rstrip().endswith("course doctor")
    assert os.access(folder / "binder" / "postBuild", os.X_OK)


def test_the_devcontainer_installs_the_course_and_checks_the_machine():
    config = json.loads((ROOT / ".devcontainer" / "devcontainer.json").read_text())
    assert "python:1-3.11" in config["image"]
    command = config["postCreateCommand"]
    assert "bubblewrap" in command and "python -m pip install -e ." in command and command.endswith("course doctor")


# --- issue 29: what a release gives away -----------------------------------------------------------------------

def test_a_release_holds_all_but_the_last_hint_level_and_no_solution_line_it_need_not(released):
    """The target of tests/release_leaks.py: no distinctive solution line in a default release outside its
    exercise's given code, except those `release_leaks.ALLOWED` lists with the reason it must stay; and no entry
    there that is no longer found (the list stays exact)."""
    import ast
    import importlib

    sys.path.insert(0, str(ROOT / "tests"))
    try:
        import release_leaks
    finally:
        sys.path.remove(str(ROOT / "tests"))
    for number in ("01", "03", "05"):
        tree = ast.parse((released / "course_lib" / "checks" / f"l{number}.py").read_text(encoding="utf-8"))
        node = next(item for item in tree.body if isinstance(item, ast.AnnAssign) and item.target.id == "HINTS")
        shipped = ast.literal_eval(node.value)
        course = importlib.import_module(f"course_lib.checks.l{number}").HINTS
        assert shipped == {exercise: levels[:-1] for exercise, levels in course.items()}, number
    report = release_leaks.measure(released)
    unlisted, stale = release_leaks.unlisted_and_stale(report)
    assert report["distinctive"] >= 150
    assert unlisted == [], "solution lines a release gives away: remove their source, or list them with a reason"
    assert stale == [], "ALLOWED lists lines a release no longer holds: remove them from the list"
    assert all(reason.strip() for reason in release_leaks.ALLOWED.values())


def test_a_graded_kernels_course_lib_holds_no_solution_line_a_release_need_not(tmp_path):
    """What a submission's kernel can read while it is graded (`release.copy_package(kernel=True)`: no checker, the
    last hint level cut) holds no distinctive solution line beyond `release_leaks.ALLOWED`, and fewer than a release
    (the checkers' own lines are not in it)."""
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        import release_leaks
    finally:
        sys.path.remove(str(ROOT / "tests"))
    release.copy_package(tmp_path / "course_lib", kernel=True)
    report = release_leaks.measure(tmp_path)
    unlisted, _ = release_leaks.unlisted_and_stale(report)
    assert unlisted == []
    assert not any(holder.startswith("course_lib/checks/") and line["line"] == 'if hints["readOnlyHint"] and not '
                   'hints["openWorldHint"]:' for line in report["lines"] for holder in line["in"])
    assert report["found"] < len(release_leaks.ALLOWED)


def test_a_graded_kernels_checker_modules_hold_no_hidden_probe_data():
    """Issue 29 item 2 (red team rtgrade5): the kernel's copy of checks/l03.py held `_MORE_ORDERS`, the rows 3.1
    and 3.2 add to the backend while they run, so a submission could read the held-out orders before its check.
    They now reach the kernel only as the arguments of `course_state` when a check starts."""
    from course_lib.checks import l03

    cut = release.kernel_side((ROOT / "course_lib" / "checks" / "l03.py").read_text(encoding="utf-8"))
    hidden = [*l03._MORE_ORDERS, *l03._MORE_CUSTOMERS, l03._SECOND_OUTAGE]
    assert "def _more_orders(" in cut and "def _archived(" in cut  # what the checks still run in the kernel
    assert [value for value in hidden if value in cut] == []


def test_a_gradescope_autograder_grades_only_its_lessons_and_says_what_it_ignored(autograder):
    submission = autograder / "submission"
    shutil.rmtree(submission, ignore_errors=True)
    submission.mkdir()
    shutil.copy(ROOT / "exercises" / LESSON, submission / LESSON)
    shutil.copy(ROOT / "solutions" / "03_two_kinds_of_failure.ipynb", submission / "03_two_kinds_of_failure.ipynb")
    done = subprocess.run(["bash", str(autograder / "run_autograder")], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "AUTOGRADER_ROOT": str(autograder)})
    assert done.returncode == 0, done.stderr[-2000:]
    results = json.loads((autograder / "results" / "results.json").read_text(encoding="utf-8"))
    assert [test["number"] for test in results["tests"]] == ["1.1", "1.2", "1.3", "1.4"] and results["score"] == 0
    assert "ignored 03_two_kinds_of_failure.ipynb: not a notebook of lesson 01" in results["output"]
    assert str(autograder) not in results["output"]


def test_a_gradescope_submission_of_nested_folders_and_several_notebooks_counts_its_best_notebook_whole(autograder):
    """A Gradescope submission is one student's, however it is laid out: a repository handed in whole (the
    untouched exercises/01, the lesson's own notebooks/01, a release's .course/reference, the work in work/01) and
    a zip's __MACOSX residue. Before, each folder was graded as another student and the first (exercises/, 0
    passed) counted, or a folder beside a flat notebook made it ignored. Now every notebook of the lesson with its
    exercise cells is a candidate (up to 3), the one that passed the most counts whole, the others are named.
    Each candidate is graded in a kernel of its own: nothing of one reaches another's outcomes."""
    submission = autograder / "submission"
    shutil.rmtree(submission, ignore_errors=True)
    for folder, source in (("exercises", ROOT / "exercises" / LESSON), ("notebooks", ROOT / "notebooks" / LESSON),
                           (".course/reference", ROOT / "exercises" / LESSON), ("work", ROOT / "solutions" / LESSON)):
        (submission / folder).mkdir(parents=True)
        shutil.copy(source, submission / folder / LESSON)
    (submission / "__MACOSX").mkdir()
    (submission / "__MACOSX" / f"._{LESSON}").write_bytes(b"\x00\x05\x16\x07 AppleDouble")
    done = subprocess.run(["bash", str(autograder / "run_autograder")], capture_output=True, text=True, timeout=900,
                          env={**os.environ, "AUTOGRADER_ROOT": str(autograder)})
    assert done.returncode == 0, done.stderr[-2000:]
    results = json.loads((autograder / "results" / "results.json").read_text(encoding="utf-8"))
    assert [test["number"] for test in results["tests"]] == ["1.1", "1.2", "1.3", "1.4"]
    assert results["score"] == 4.0, results["output"]
    output = results["output"]
    assert f"graded exercises/{LESSON} too (0 passed); work/{LESSON} counts (4 passed)" in output, output
    assert f"ignored __MACOSX/._{LESSON}: not a notebook of lesson 01" in output, output
    assert f"ignored notebooks/{LESSON}: it has none of lesson 01's exercise cells" in output, output
    assert str(autograder) not in output


def test_grading_one_students_folder_tries_each_lesson_at_most_three_times(tmp_path):
    """The candidates of a lesson, in order: with its exercise cells, named exactly after it, shallowest, by path;
    after `tries` the rest are ignored with a line, and a lesson's own notebook (no exercise cells) comes last."""
    from course_lib.workbook import grading

    folder = tmp_path / "submission"
    for relative, source in (("a/b/01_bad_tool_rewrite.ipynb", "exercises"), ("01_copy.ipynb", "exercises"),
                             ("z/01_bad_tool_rewrite.ipynb", "exercises"), ("m/01_bad_tool_rewrite.ipynb", "notebooks"),
                             ("y/01_bad_tool_rewrite.ipynb", "exercises")):
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / source / LESSON, folder / relative)
    report = grading.Report()
    groups, rows = grading._one_per_lesson(folder, "s", grading.notebooks_in(folder), {"01"}, report, tries=3)
    assert [[path.relative_to(folder).as_posix() for path in group] for group in groups] == [
        ["y/01_bad_tool_rewrite.ipynb", "z/01_bad_tool_rewrite.ipynb", "a/b/01_bad_tool_rewrite.ipynb"]]
    assert rows == [] and report.ignored == [
        "ignored 01_copy.ipynb: 3 other notebooks of lesson 01 were graded (hand in one notebook per lesson)",
        "ignored m/01_bad_tool_rewrite.ipynb: it has none of lesson 01's exercise cells"]


def test_the_kernels_course_lib_holds_no_held_out_case_set_and_no_spec_name(tmp_path):
    """Red team rtgrade7 c26/c27: 8.1 and 8.3 passed on cases cut from the held-out sets in the kernel's course_lib
    (evals/cases/heldout_*.toml); c01: 1.4 passed on `review.SPEC_NAME`, the regex of the forwarded is_valid_name.
    The kernel's copy has neither; the course's own copy keeps both (lesson 08 reads the held-out sets)."""
    release.copy_package(tmp_path / "kernel" / "course_lib", kernel=True)
    release.copy_package(tmp_path / "full" / "course_lib")
    kernel, full = (sorted(path.name for path in (tmp_path / side / "course_lib" / "evals" / "cases").iterdir())
                    for side in ("kernel", "full"))
    held_out = [name for name in full if "heldout" in name]
    assert len(held_out) == 8 and not set(held_out) & set(kernel) and set(kernel) | set(held_out) == set(full)
    assert "SPEC_NAME" not in (tmp_path / "kernel" / "course_lib" / "review.py").read_text(encoding="utf-8")
    assert "SPEC_NAME" in (tmp_path / "full" / "course_lib" / "review.py").read_text(encoding="utf-8")


def test_the_kernels_lesson_tools_list_as_the_courses_and_have_no_body(tmp_path):
    """Red team rtgrade7 F1/F2: in the kernel's copy of course_lib every lesson server lists exactly the tools the
    course's lists (the setup and lesson cells show them), but a call of a lesson tool, of the lesson store's
    `add_note_once` or `visible` (and so `get`), or of the workspace's search_tickets (6.1's answer) is a tool error
    naming it; the other workspace tools, which 6.2 and 6.4's answers register, still run."""
    script = '''
import importlib, json
from course_lib import wire
from course_lib.servers import failures, incidents, weather, workspace
listed = {}
for module in ("clock", "deploy", "documents", "drafts", "evolving", "failures", "incident_overloaded",
               "incident_risky", "incidents", "ops", "orders", "poisoned", "weather", "workspace"):
    found = importlib.import_module("course_lib.servers." + module)
    for name in sorted(n for n in dir(found) if n.startswith("build")):
        listed[module + "." + name] = [t.model_dump(mode="json") for t in wire.run_sync(wire.list_tools, getattr(found, name)())]
calls = {}
for key, (server, tool, args) in {"weather": (weather.build_server(), "get_daily_forecast", {"city": "Oslo"}),
                                  "failures": (failures.build_server(), "cancel_order", {"order_number": "ORD-1043", "dry_run": True}),
                                  "workspace": (workspace.build_server(), "get_ticket", {"ticket_id": "TCK-402"}),
                                  "search": (workspace.build_server(), "search_tickets", {"query": "login"})}.items():
    result = wire.run_sync(wire.call_tool, server, tool, args)
    calls[key] = [result.is_error, result.content[0].text if result.content else ""]
errors = []
for call in (lambda: incidents.Store().add_note_once("ana", "INC-101", "x", "r"), lambda: incidents.Store().visible("ana", "INC-101"),
             lambda: incidents.Store().get("ana", "INC-101")):
    try:
        call()
        errors.append("ran")
    except Exception as error:
        errors.append(str(error))
print(json.dumps({"listed": listed, "calls": calls, "errors": errors}))
'''
    release.copy_package(tmp_path / "kernel" / "course_lib", kernel=True)
    release.copy_package(tmp_path / "full" / "course_lib")
    seen = {}
    for side in ("kernel", "full"):
        done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path / side, capture_output=True, text=True,
                              timeout=300, env={**os.environ, "PYTHONPATH": str(tmp_path / side)})
        assert done.returncode == 0, done.stderr[-2000:]
        seen[side] = json.loads(done.stdout.splitlines()[-1])
    lean = [tool for tool in seen["full"]["listed"]["workspace.build_server"] if tool["name"] == "search_tickets"]
    for server, tools in seen["full"]["listed"].items():  # 6.1's answer lists without its prose (rtgrade9 F3)
        for tool in tools:
            if tool["name"] == "search_tickets" and server.startswith("workspace."):
                assert tool["description"] == lean[0]["description"] and len(tool["description"]) > 100
                tool["description"] = ""  # the SDK's description of a function without a docstring
    assert seen["kernel"]["listed"] == seen["full"]["listed"] and len(seen["full"]["listed"]) >= 20
    assert seen["kernel"]["calls"]["weather"] == [True, "Error executing tool get_daily_forecast: "
                                                        "weather.get_daily_forecast is the course's own: no body while graded"]
    assert "failures.cancel_order is the course's own" in seen["kernel"]["calls"]["failures"][1]
    assert seen["kernel"]["calls"]["workspace"] == seen["full"]["calls"]["workspace"]
    assert "workspace.search_tickets_tool is the course's own" in seen["kernel"]["calls"]["search"][1]
    assert [call[0] for call in seen["full"]["calls"].values()] == [False, False, False, False]
    assert seen["kernel"]["errors"] == [f"{name} is the course's own: no body while graded" for name in (
        "incidents.Store.add_note_once", "incidents.Store.visible", "incidents.Store.visible")]
    assert "ran" in seen["full"]["errors"][:2]
