"""The `course` command: real runs in subprocesses, one-line errors, exit codes."""

from __future__ import annotations

import shutil
import subprocess
import sys

import json
import re

import pytest
from pathlib import Path

from conftest import ROOT


def course(*args: str, cwd=ROOT, prefix: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    return subprocess.run([*prefix, sys.executable, "-m", "course_lib.cli", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=300, env=_offline_env())


def no_network_prefix() -> tuple[str, ...]:
    """`unshare -n` (a new network namespace with no interfaces up) where this machine allows it."""
    unshare = shutil.which("unshare")
    if unshare and subprocess.run([unshare, "-n", "true"], capture_output=True).returncode == 0:
        return (unshare, "-n")
    return ()


def _offline_env() -> dict:
    import os

    env = dict(os.environ, NO_COLOR="1")
    # Any attempt to reach the network through a proxy-aware client fails fast.
    env.update(HTTP_PROXY="http://127.0.0.1:9", HTTPS_PROXY="http://127.0.0.1:9", TIKTOKEN_CACHE_DIR="")
    return env


def one_line_error(result: subprocess.CompletedProcess) -> str:
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("course: ")
    return lines[0]


def test_doctor_passes_offline_with_one_line_per_check():
    result = course("doctor", prefix=no_network_prefix())
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.strip().splitlines()
    assert all(line.startswith("✅ ") for line in lines[:-1])
    assert any("o200k_base loaded offline" in line and "446a9538" in line for line in lines)
    assert any("cl100k_base loaded offline" in line and "223921b7" in line for line in lines)
    assert lines[-1].startswith("All checks passed")


@pytest.mark.parametrize("args, says", [
    (("check", "missing.ipynb"), "no such file: missing.ipynb"),
    (("check", "pyproject.toml"), "is not a notebook"),
    (("check", "42"), "there is no lesson 42"),
    (("hint", "42.1"), "there is no lesson 42"),
    (("hint", "1.9"), "there is no exercise 1.9"),
    (("hint", "banana"), "not an exercise id"),
    (("review", "nope"), "unknown server 'nope'"),
    (("serve", "nope"), "unknown server 'nope'"),
    (("frobnicate",), "invalid choice"),
    (("build", "--root", "no/such/folder"), "has no solutions/ folder"),
    (("hint", "1.1", "--level", "0"), "--level must be a whole number above 0, not '0'"),
    (("hint", "1.1", "--level", "-1"), "--level must be a whole number above 0, not '-1'"),
    (("hint", "1.1", "--level", "9"), "--level 9: exercise 1.1 has 3 hint levels"),
    (("release", "/proc/forbidden"), "course: /proc/forbidden: No such file or directory"),
    (("release", "pyproject.toml"), "pyproject.toml is a file: name a new folder for the release"),
])
def test_user_mistakes_get_one_line_and_a_nonzero_exit(args, says):
    result = course(*args)
    assert says in one_line_error(result) and result.returncode == 2


def test_broken_notebook_gets_one_line(tmp_path):
    broken = tmp_path / "broken.ipynb"
    broken.write_text("{ this is not json")
    assert "is not a valid notebook" in one_line_error(course("check", str(broken)))


def test_outside_the_course_folder_build_says_where_to_run(tmp_path):
    assert one_line_error(course("build", cwd=tmp_path)) == (
        "course: `course build` needs the instructor's course folder: run it inside it, or pass --root")


def test_outside_the_course_folder_check_names_the_folder_a_student_has(tmp_path):
    """Walkthrough 5, M1: the command this message gives, typed as given outside the course folder, failed with a
    second error ("no course folder here or above"): now it names this command's full path and the notebook's, and
    a notebook's path finds its course folder from where the notebook is."""
    import shlex

    said = one_line_error(course("check", "01", cwd=tmp_path))
    lead = "course: run this inside the course folder (the one with exercises/), or give the notebook's path: "
    assert said.startswith(lead)
    command = shlex.split(said[len(lead):])
    assert command[1:] == ["check", str(ROOT.resolve() / "exercises" / "01_bad_tool_rewrite.ipynb"), "--root",
                           str(ROOT.resolve())]
    assert Path(command[0]).is_file() and Path(command[0]).parent == Path(sys.executable).parent
    typed = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=300, env=_offline_env())
    assert typed.returncode == 1 and "0 of 4 exercises passed" in typed.stdout, typed.stderr
    assert f"run `{' '.join(command)}` again" in " ".join(typed.stdout.split())  # the footer (N3)


def test_outside_the_course_folder_hint_and_lessons_name_what_works_there(tmp_path):
    """Walkthrough 5, N4 and N5: outside the course folder `course hint` pointed at a relative .venv/bin/course that
    is not there, and `course lessons` asked for the instructor's folder though a student's copy works too."""
    last = course("hint", "1.2", cwd=tmp_path).stdout.strip().splitlines()[-1]
    assert last.startswith("Next hint: ") and last.endswith(" hint 1.2 --level 2")
    assert Path(last.split()[2]).is_absolute() and Path(last.split()[2]).is_file(), last
    assert course("hint", "1.2").stdout.strip().endswith("Next hint: .venv/bin/course hint 1.2 --level 2")
    assert one_line_error(course("lessons", cwd=tmp_path)) == (
        "course: `course lessons` needs a course folder (the instructor's, or a student's copy with exercises/): "
        "run it inside it, or pass --root")


def test_check_on_a_lesson_notebook_names_its_exercise_notebook():
    result = course("check", "notebooks/01_bad_tool_rewrite.ipynb")
    assert result.returncode == 2 and one_line_error(result) == (
        "course: notebooks/01_bad_tool_rewrite.ipynb is a lesson, not an exercise notebook: "
        "check exercises/01_bad_tool_rewrite.ipynb")


def test_build_check_reports_in_sync():
    result = course("build", "--check")
    assert result.returncode == 0 and "in sync" in result.stdout


def test_build_check_detects_drift(tmp_path):
    copy = tmp_path / "course"
    for folder in ("solutions", "exercises", "course_lib"):
        shutil.copytree(ROOT / folder, copy / folder)
    solution = sorted((copy / "solutions").glob("*.ipynb"))[-1]
    solution.write_text(solution.read_text().replace("Exercise ", "Exercise  ", 1))
    stale = copy / "exercises" / solution.name
    result = course("build", "--check", cwd=copy)
    assert result.returncode == 1 and stale.name in result.stderr
    assert course("build", cwd=copy).returncode == 0  # only out of date, never worked in: rebuilt
    assert course("build", "--check", cwd=copy).returncode == 0


def test_check_unsolved_notebook_lists_every_exercise_as_not_done():
    result = course("check", "01")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    rows = [line for line in lines if line.startswith("⏳")]
    assert [row.split()[1] for row in rows] == ["1.1", "1.2", "1.3", "1.4"]
    assert rows[0].startswith("⏳ 1.1  not done  register one tool whose name starts with a verb")
    assert "is not done yet" not in result.stdout and "raise NotImplementedError" not in "".join(rows)
    assert all(len(line) <= 120 for line in lines), max(lines, key=len)
    assert "(.venv/bin/course hint 1.1)" in result.stdout and "hints.show" not in result.stdout
    assert "0 of 4 exercises passed in 01_bad_tool_rewrite.ipynb." in lines
    assert result.stdout.count("replace `raise NotImplementedError(...)`") == 1  # said once, below the table
    assert "run `.venv/bin/course check 01` again." in " ".join(result.stdout.split())  # the command just run (N3)
    assert "sandbox: bubblewrap" in result.stdout or "sandbox not available" in result.stdout


def test_check_solved_notebook_passes():
    result = course("check", "solutions/01_bad_tool_rewrite.ipynb")
    assert result.returncode == 0, result.stdout
    assert "4 of 4 exercises passed" in result.stdout and "course hint" not in result.stdout


def test_check_reports_a_wrong_answer_with_its_message(tmp_path):
    import nbformat

    notebook = nbformat.read(ROOT / "solutions/01_bad_tool_rewrite.ipynb", as_version=4)
    cell = next(c for c in notebook.cells if "def is_valid_tool_name" in c.source)
    cell.source = cell.source.replace('r"[A-Za-z0-9_.-]{1,128}"', 'r"[\\w.-]+"')
    path = tmp_path / "01_attempt.ipynb"
    nbformat.write(notebook, path)
    result = course("check", str(path))
    lines = result.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("❌ 1.4  failed  expected your answer to return True"))
    detail = " ".join(line.strip() for line in lines[start:start + 8])
    assert "(.venv/bin/course hint 1.4 --rule rule)" in detail and "hints.show" not in detail  # level 1: its idea
    assert result.returncode == 1


def test_check_table_wraps_details_under_their_row():
    from course_lib.cli import check_table
    from course_lib.workbook.outcomes import Outcome

    long = Outcome("1.2", "failed", "Exercise 1.2: expected " + "word " * 40 + "; found x. Open hints.show(\"1.2\") "
                   "for a hint.", 'hints.show("1.2")')
    lines = check_table([Outcome("1.1", "passed", "fine"), long], width=60)
    assert lines[0] == "✅ 1.1  passed  fine"
    assert lines[1].startswith("❌ 1.2  failed  expected word") and all(len(line) <= 60 for line in lines)
    assert all(line.startswith(" " * 16) and line[16] != " " for line in lines[2:])  # under the detail's start
    assert lines[-1].endswith("(.venv/bin/course hint 1.2)")


def test_check_table_never_splits_a_hint_command_across_lines():
    """Walkthrough 5, N2: `(.venv/bin/course hint` / `1.4)` on two lines; the pointer wraps whole, before its
    parenthesis, at every width."""
    from course_lib.cli import check_table
    from course_lib.workbook.outcomes import Outcome

    row = Outcome("1.4", "not done", "Exercise 1.4 is not done yet: return True only for 1-128 characters of "
                  "A-Z a-z 0-9 _ - .", 'hints.show("1.4")')
    for width in range(60, 121):
        text = "\n".join(check_table([row], width=width))
        assert "(.venv/bin/course hint 1.4)" in text.splitlines()[-1], (width, text)


def test_hint_levels_and_review():
    assert course("hint", "1.2", "--level", "2").stdout.startswith("Hint 2 of 3 (the API) for exercise 1.2:")
    first, last = course("hint", "1.1").stdout, course("hint", "1.1", "--level", "3").stdout
    assert "hints.show" not in first + last  # a terminal user types commands, not notebook calls
    assert first.rstrip().endswith("Next hint: .venv/bin/course hint 1.1 --level 2")
    assert last.startswith("Hint 3 of 3 (the last hint) for exercise 1.1:") and "Next hint" not in last
    assert last.rstrip().endswith("That was the last hint for this exercise.")
    review = course("review", "weather", "--fail-on", "warning")
    assert review.returncode == 1 and "- weather: MCP103 [name-intent] warning:" in review.stdout
    assert "get_daily_forecast:" not in review.stdout
    assert course("review", "weather").returncode == 0  # warnings only: below the default --fail-on error


def test_lessons_lists_the_plan_from_the_manifest_and_the_notebooks():
    import nbformat

    from course_lib.workbook import manifest

    result = course("lessons", "--detail")
    assert result.returncode == 0
    for lesson in manifest.lessons():
        meta = nbformat.read(lesson.notebook(ROOT), as_version=4).metadata["course"]
        assert f"{lesson.number}  {lesson.title}  ({lesson.teaching} min teaching" in result.stdout
        assert f"objective 1: {meta['objectives'][0]}" in result.stdout
    teaching = sum(lesson.teaching for lesson in manifest.lessons())
    exercises = sum(lesson.exercise_minutes for lesson in manifest.lessons())
    assert result.stdout.strip().splitlines()[-1].startswith(f"total: {teaching} min teaching + {exercises} min")


def test_output_piped_into_head_ends_quietly():
    pipe = subprocess.run(f"{sys.executable} -m course_lib.cli lessons --detail | head -1", shell=True, cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert pipe.stdout.startswith("00  ") and "Traceback" not in pipe.stderr


def _doctor(capsys) -> tuple[int, list[str]]:
    """`course doctor` in this process (each test first breaks one thing the way a real machine can be broken)."""
    from course_lib import cli

    code = cli.main(["doctor"])
    return code, capsys.readouterr().out.strip().splitlines()


def test_doctor_reports_a_missing_package_and_fails(monkeypatch, capsys):
    import importlib.metadata

    real = importlib.metadata.version

    def version(name: str) -> str:
        if name == "nbval":
            raise importlib.metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(importlib.metadata, "version", version)
    code, lines = _doctor(capsys)
    failed = [line for line in lines if line.startswith("❌")]
    assert code == 1 and len(failed) == 1 and "nbval is not installed" in failed[0]
    assert lines[-1] == "1 check(s) failed: see the ❌ lines above."


def test_doctor_reports_a_tampered_tokenizer_file_and_fails(monkeypatch, capsys, tmp_path):
    import gzip
    import shutil

    from course_lib import tokens

    shutil.copytree(tokens._data_dir(), tmp_path / "data")
    path = tmp_path / "data" / "cl100k_base.tiktoken.gz"
    path.write_bytes(gzip.compress(gzip.decompress(path.read_bytes()) + b"dG9v 999999\n"))
    monkeypatch.setattr(tokens, "_data_dir", lambda: tmp_path / "data")
    tokens._load.cache_clear()
    try:
        code, lines = _doctor(capsys)
    finally:
        tokens._load.cache_clear()
    failed = [line for line in lines if line.startswith("❌")]
    assert code == 1 and len(failed) == 1 and "cl100k_base: sha256" in failed[0] and "does not match" in failed[0]


def test_doctor_reports_no_jupyter_kernel_and_fails(monkeypatch, capsys):
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel

    def missing(self, name):
        raise NoSuchKernel(name)

    monkeypatch.setattr(KernelSpecManager, "get_kernel_spec", missing)
    code, lines = _doctor(capsys)
    failed = [line for line in lines if line.startswith("❌")]
    assert code == 1 and len(failed) == 1 and "no 'python3' Jupyter kernel" in failed[0]


def test_doctor_reports_a_failing_mcp_round_trip_and_fails(monkeypatch, capsys):
    from mcp.server import MCPServer

    from course_lib.servers import weather

    def broken_server():
        server = MCPServer("weather", log_level="WARNING")

        @server.tool()
        def get_daily_forecast(city: str, days: int = 1) -> dict[str, str]:
            """Broken on purpose."""
            raise RuntimeError("backend down")

        return server

    monkeypatch.setattr(weather, "build_server", broken_server)
    code, lines = _doctor(capsys)
    failed = [line for line in lines if line.startswith("❌")]
    assert code == 1 and len(failed) == 1 and "MCP call failed" in failed[0]


TYPED = re.compile(r"`(course \w+ [^`]+)`|^(course \w+.*)$", re.M)
"""A `course` command a learner is told to type: in backticks with its arguments, or a line of a fenced block.
`course serve …` is a host's command, and a bare `course check` names the command; neither is typed in a terminal."""


def _typed_commands(text: str) -> list[str]:
    found = [a or b for a, b in TYPED.findall(text)]
    return [command for command in found if not command.startswith("course serve")]


def test_every_course_command_a_learner_is_told_to_type_is_the_venvs():
    """A JupyterLab terminal is a login shell, which resets PATH: a bare `course` is "command not found" in a
    release installed as its README says. Every message says `.venv/bin/course`, which is found there."""
    told = []
    for folder in ("notebooks", "exercises"):
        for path in sorted((ROOT / folder).glob("*.ipynb")):
            for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
                if cell["cell_type"] == "markdown":
                    told += [f"{path.name}: {c}" for c in _typed_commands("".join(cell["source"]))]
    from course_lib.workbook import release

    told += [f"student README: {c}" for c in _typed_commands(release.student_readme())]
    check = course("check", "01")
    hint = course("hint", "1.1")
    told += [f"course check: {c}" for c in re.findall(r"(?<![\w/.])course (?:hint|check) \S+", check.stdout)]
    told += [f"course hint: {c}" for c in re.findall(r"(?<![\w/.])course hint \S+", hint.stdout)]
    assert told == []
    assert "(.venv/bin/course hint 1.1)" in check.stdout and "Next hint: .venv/bin/course hint 1.1" in hint.stdout
    post_build = (ROOT / "binder" / "postBuild").read_text()
    post_create = json.loads((ROOT / ".devcontainer" / "devcontainer.json").read_text())["postCreateCommand"]
    for setup in (post_build, post_create):  # installs without a .venv link the name students are told
        assert 'ln -sf "$(command -v course)" .venv/bin/course' in setup


# --- numeric options: out of range is one line and exit 2, before anything runs -------------------------------

OUT_OF_RANGE = [
    (("check", "01", "--timeout", "0"), "--timeout must be a whole number of seconds above 0, not '0'"),
    (("grade", "DIR", "--timeout", "-5"), "--timeout must be a whole number of seconds above 0, not '-5'"),
    (("grade", "DIR", "--budget", "-1"), "--budget must be a number of seconds above 0, not '-1'"),
    (("grade", "DIR", "--budget", "nan"), "--budget must be a number of seconds above 0, not 'nan'"),
    (("grade", "DIR", "--jobs", "0"), "--jobs must be a whole number above 0, not '0'"),
    (("grade", "DIR", "--hints", "two"), "--hints must be a whole number, not 'two'"),
    (("release", "DIR", "--hints", "1.5"), "--hints must be a whole number, not '1.5'"),
    (("autograder", "gradescope", "a.zip", "--timeout", "0"), "--timeout must be a whole number of seconds above 0"),
    (("autograder", "gradescope", "a.zip", "--hints", "inf"), "--hints must be a whole number, not 'inf'"),
    (("hint", "1.1", "--level", "x"), "--level must be a whole number above 0, not 'x'"),
    (("review", "weather", "--budget", "0"), "--budget must be a whole number of tokens above 0, not '0'"),
    (("review", "weather", "--startup-timeout", "inf"), "--startup-timeout must be a number of seconds above 0"),
    (("snapshot", "weather", "--startup-timeout", "0"), "--startup-timeout must be a number of seconds above 0"),
    (("diff", "a.json", "b.json", "--startup-timeout", "-1"), "--startup-timeout must be a number of seconds above 0"),
    (("eval", "safety", "--timeout", "0"), "--timeout must be a number of seconds above 0, not '0'"),
    (("eval", "safety", "--trials", "0"), "--trials must be a whole number above 0 and at most 100, not '0'"),
    (("eval", "safety", "--trials", "101"), "--trials must be a whole number above 0 and at most 100, not '101'"),
    (("eval", "safety", "--concurrency", "-1"), "--concurrency must be a whole number above 0, not '-1'"),
    (("eval", "safety", "--threshold", "nan"), "--threshold must be a number, not 'nan'"),
]


@pytest.mark.parametrize("args, says", OUT_OF_RANGE, ids=lambda value: " ".join(value) if isinstance(value, tuple) else "")
def test_a_numeric_option_out_of_range_is_one_line_and_exit_2(args, says, tmp_path):
    result = course(*(str(tmp_path) if arg == "DIR" else arg for arg in args), cwd=tmp_path if "DIR" in args else ROOT)
    assert says in one_line_error(result) and result.returncode == 2


def test_every_numeric_option_of_every_command_is_range_checked_when_parsed():
    """No option parses a bare int or float (those take 0, -5, nan or inf); each one is tried above."""
    from course_lib import cli

    subcommands = next(action for action in cli.parser()._actions if action.choices and "grade" in action.choices)
    bare = [f"{name} {'/'.join(action.option_strings)}" for name, sub in subcommands.choices.items()
            for action in sub._actions if action.type in (int, float)]
    assert bare == ["serve --port"]  # serving.serve refuses a port out of 0-65535 (test_serving)
    tried = {(args[0], arg) for args, _ in OUT_OF_RANGE for arg in args if arg.startswith("--")}
    numeric = {(name, action.option_strings[-1]) for name, sub in subcommands.choices.items()
               for action in sub._actions if action.type is not None and action.type.__module__ == cli.__name__}
    assert numeric == tried


def test_grading_a_lesson_nobody_handed_in_says_so_and_writes_nothing(tmp_path):
    (tmp_path / "alice").mkdir()
    shutil.copy(ROOT / "exercises" / "01_bad_tool_rewrite.ipynb", tmp_path / "alice")
    (tmp_path / "grades.csv").write_text("lesson 01's grades\n")
    result = course("grade", str(tmp_path), "--lesson", "05", "--root", str(ROOT))
    assert one_line_error(result) == (
        f"course: {tmp_path} holds no notebook of lesson 05 (named like 05_safe_mutation_incidents.ipynb): "
        "nothing graded, no report written") and result.returncode == 2
    assert sorted(path.name for path in tmp_path.iterdir()) == ["alice", "grades.csv"]
    assert (tmp_path / "grades.csv").read_text() == "lesson 01's grades\n"


def test_grading_one_lesson_writes_its_own_reports_beside_another_lessons(tmp_path):
    (tmp_path / "alice").mkdir()
    shutil.copy(ROOT / "exercises" / "01_bad_tool_rewrite.ipynb", tmp_path / "alice")
    (tmp_path / "grades.csv").write_text("every lesson's grades\n")
    result = course("grade", str(tmp_path), "--lesson", "01", "--root", str(ROOT), "--timeout", "120")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith(f"{tmp_path / 'grades_01.csv'}, {tmp_path / 'grades_01.html'}; the "
                                          f"class's totals per exercise: {tmp_path / 'grades_01_totals.csv'}")
    assert (tmp_path / "grades_01_totals.csv").read_text().splitlines()[1:] == [f"1.{n},0,1,0" for n in range(1, 5)]
    assert (tmp_path / "grades_01.csv").read_text().count("alice") == 4
    assert (tmp_path / "grades.csv").read_text() == "every lesson's grades\n"
