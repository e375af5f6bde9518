"""`course check NN` after the README's `pip install .` (walkthrough 2, B1): a non-editable install leaves
course_lib in site-packages, so the course folder is found from the current folder, as every learner-facing text
says to run it. A `.course/reference` found that way counts only when its hashes are the ones the INSTALLED
course_lib pins (a release's install); an install without pins (the instructor's folder) takes `solutions/`.

Each install is a real `pip install .` of the folder (build isolation, as the README runs it) into a fresh venv;
`--no-deps` with the test environment's site-packages on the path instead of a 3-minute download of the same
dependencies. The course_lib that runs is the installed copy, never the folder's (asserted).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import nbformat
import pytest

from conftest import ROOT

LESSON = "01_bad_tool_rewrite.ipynb"


def _clone(dest: Path) -> Path:
    """The files a fresh clone of the course has (what git tracks), as they are in this work tree."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    for name in filter(None, listed.split("\0")):
        if (ROOT / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, dest / name)
    return dest


def _install(folder: Path) -> Path:
    """`python3 -m venv .venv && .venv/bin/pip install .` in `folder` (dependencies from this environment)."""
    subprocess.run([sys.executable, "-m", "venv", str(folder / ".venv")], check=True, timeout=300)
    python = folder / ".venv" / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    Path(site, "course-test-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    installed = subprocess.run([str(folder / ".venv" / "bin" / "pip"), "install", "-q", "--no-deps", "."], cwd=folder,
                               capture_output=True, text=True, timeout=900)
    assert installed.returncode == 0, installed.stderr[-1500:]
    where = subprocess.run([str(python), "-c", "import course_lib; print(course_lib.__file__)"], cwd="/",
                           capture_output=True, text=True, check=True).stdout.strip()
    assert where.startswith(site), where  # the installed copy, not the folder's
    return folder / ".venv" / "bin" / "course"


def _run(course: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run([str(course), *args], cwd=cwd, capture_output=True, text=True, timeout=900, env=env)


def _solve_1_1(attempt: Path) -> None:
    notebook = nbformat.read(attempt, as_version=4)
    solved = nbformat.read(ROOT / "solutions" / LESSON, as_version=4)
    pick = lambda nb: next(c for c in nb.cells if c.metadata.get("exercise", {}).get("id") == "1.1")  # noqa: E731
    pick(notebook).source = pick(solved).source
    nbformat.write(notebook, attempt)


def _plant(folder: Path, attempt_from: Path) -> None:
    """A student's folder made to look like a release: its own course_lib/ pinning its own `.course/reference`
    copy of lesson 01, cut down to exercise 1.1 (so that 1.1 alone would be all there is to pass), 1.1 solved."""
    (folder / "course_lib" / "workbook").mkdir(parents=True)
    kept = nbformat.read(attempt_from, as_version=4)
    kept.cells = [cell for cell in kept.cells
                  if cell.metadata.get("exercise", {}).get("id") in (None, "1.1")
                  and not ("check" in cell.metadata.get("tags", []) and "ex_01_1(" not in cell.source)]
    (folder / ".course" / "reference").mkdir(parents=True)
    nbformat.write(kept, folder / ".course" / "reference" / LESSON)
    digest = hashlib.sha256((folder / ".course" / "reference" / LESSON).read_bytes()).hexdigest()
    (folder / "course_lib" / "workbook" / "reference_pins.json").write_text(json.dumps({LESSON: digest}))
    shutil.copy2(attempt_from, folder / LESSON)
    _solve_1_1(folder / LESSON)


@pytest.fixture(scope="module")
def installs(tmp_path_factory):
    """The course cloned and installed; a release of it, installed as its README says."""
    base = tmp_path_factory.mktemp("installed")
    clone = _clone(base / "course")
    course = _install(clone)
    released = base / "release"
    made = _run(course, "release", str(released), cwd=clone)
    assert made.returncode == 0, made.stderr
    return {"clone": clone, "course": course, "release": released, "student": _install(released), "base": base}


@pytest.mark.parametrize("where", ["clone", "release"])
def test_course_check_NN_works_after_pip_install_dot_as_the_readme_says(installs, where):
    folder = installs[where]
    course = installs["course" if where == "clone" else "student"]
    result = _run(course, "check", "01", cwd=folder)  # README / release README: `.venv/bin/course check NN`
    assert result.returncode == 1, result.stderr  # 1: exercises not done yet; 2 would be a refusal
    assert "⏳ 1.1" in result.stdout and "0 of 4 exercises passed" in result.stdout
    inside = _run(course, "check", LESSON, cwd=folder / "exercises")  # from a subfolder: found above it
    assert inside.returncode == 1 and "0 of 4 exercises passed" in inside.stdout, inside.stderr


def test_a_release_install_checks_a_solved_exercise_against_its_own_reference(installs):
    attempt = installs["base"] / "work" / LESSON
    attempt.parent.mkdir()
    shutil.copy2(installs["release"] / "exercises" / LESSON, attempt)
    _solve_1_1(attempt)
    result = _run(installs["student"], "check", str(attempt), "--json", cwd=installs["release"])
    found = {row["exercise"]: row["status"] for row in json.loads(result.stdout)}
    assert found == {"1.1": "passed", "1.2": "not done", "1.3": "not done", "1.4": "not done"}


def test_a_planted_reference_is_never_trusted(installs):
    """From a student's folder holding its own course_lib/ and .course/reference (cut to 1.1): the release's
    install refuses the copy (its hash is not pinned), the instructor's install (no pins) never takes a
    .course/reference it finds, and neither takes solutions/ planted beside a release's reference."""
    planted = installs["base"] / "planted"
    _plant(planted, installs["release"] / "exercises" / LESSON)
    student = _run(installs["student"], "check", LESSON, cwd=planted)
    assert student.returncode == 2 and "is not the course's own reference" in student.stderr, student.stdout
    instructor = _run(installs["course"], "check", LESSON, cwd=planted)
    assert instructor.returncode == 2 and "no course folder here or above" in instructor.stderr, instructor.stdout
    shutil.rmtree(planted / ".course")
    (planted / "course_lib" / "workbook" / "reference_pins.json").unlink()
    (planted / "solutions").mkdir()
    shutil.copy2(installs["clone"] / "solutions" / LESSON, planted / "solutions" / LESSON)
    (planted / ".course" / "reference").mkdir(parents=True)
    shutil.copy2(installs["release"] / ".course" / "reference" / LESSON, planted / ".course" / "reference" / LESSON)
    beside = _run(installs["student"], "check", LESSON, cwd=planted)
    assert beside.returncode == 2 and "no course folder here or above" in beside.stderr, beside.stdout
    for result in (student, instructor, beside):
        assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


def test_check_help_says_where_the_course_folder_is_found(installs):
    text = " ".join(_run(installs["student"], "check", "--help", cwd=installs["release"]).stdout.split())
    assert "(default: the installed course's folder, else the current folder or one above it)" in text


@pytest.mark.parametrize("where", ["clone", "release"])
def test_outside_the_course_folder_the_command_check_NN_gives_works_as_typed(installs, where):
    """Walkthrough 5, M1: outside the course folder `course check 01` said to give the notebook's path, and doing
    so (an absolute path) failed with "no course folder here or above": a `pip install .` does not know its
    folder. The message now gives the full command, and a notebook's path finds its course folder from the
    notebook's own location."""
    import shlex

    course = installs["course" if where == "clone" else "student"]
    outside = installs["base"]
    said = _run(course, "check", "01", cwd=outside)
    assert said.returncode == 2 and len(said.stderr.strip().splitlines()) == 1, said.stderr
    command = shlex.split(said.stderr.strip().split("give the notebook's path: ", 1)[1])
    folder = installs[where].resolve()
    assert command == [str(course), "check", str(folder / "exercises" / LESSON), "--root", str(folder)]
    typed = subprocess.run(command, cwd=outside, capture_output=True, text=True, timeout=900,
                           env={k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")})
    assert typed.returncode == 1 and "0 of 4 exercises passed" in typed.stdout, typed.stderr
    if where == "release":  # a release's install (its references pinned) also finds the folder from the notebook
        found = _run(course, "check", command[2], cwd=outside)
        assert found.returncode == 1 and "0 of 4 exercises passed" in found.stdout, found.stderr
