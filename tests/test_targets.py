"""`course review` on servers the course did not write: Python files and modules, stdio commands, URLs."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import ROOT, ServedOverHttp
from course_lib import targets

LEARNER_SERVER = '''
from mcp.server import MCPServer

mcp = MCPServer("mine", log_level="WARNING")


@mcp.tool()
def lookup(q: str) -> str:
    """Looks things up."""
    return q


if __name__ == "__main__":
    mcp.run()
'''


@pytest.fixture
def learner_file(tmp_path):
    path = tmp_path / "my_server.py"
    path.write_text(LEARNER_SERVER)
    return path


def review(target: str, *options: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "course_lib.cli", "review", target, *options], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, env=env)


@pytest.mark.parametrize("form", ["file", "file:attribute", "stdio command"])
def test_review_reaches_a_learners_own_server(learner_file, form):
    target = {"file": str(learner_file), "file:attribute": f"{learner_file}:mcp",
              "stdio command": f"{sys.executable} {learner_file}"}[form]
    result = review(target, "--fail-on", "warning")
    assert result.returncode == 1, result.stderr
    assert "- lookup: MCP103 [name-intent] warning: " in result.stdout
    assert result.stdout.strip().endswith(f"in 1 tool(s) of {target}")


def test_review_reaches_a_module_attribute_and_a_factory():
    names = [tool.name for tool in targets.list_tools("course_lib.servers.weather:build_chain_server")]
    assert names == ["get_city_id", "get_forecast", "convert_units"]


def test_review_reaches_an_http_url():
    with ServedOverHttp("incidents") as served:
        result = review(served.url)
    assert result.returncode == 0 and "0 finding(s) (none) in 6 tool(s)" in result.stdout


def test_two_servers_in_a_file_must_be_named(tmp_path):
    path = tmp_path / "two.py"
    path.write_text("from mcp.server import MCPServer\na = MCPServer('a')\nb = MCPServer('b')\n")
    with pytest.raises(targets.TargetProblem, match="has 2 MCPServer objects; name one as FILE:ATTRIBUTE"):
        targets.resolve(str(path))


@pytest.mark.parametrize("target, says", [
    ("missing.py", "no such file: missing.py"),
    ("frobnicate", "unknown server 'frobnicate'"),
    ("course_lib.servers.weather:nothing_here", "has no attribute 'nothing_here'"),
    ("course_lib.servers.weather:known_cities", "gave list, not an MCPServer"),
    ("no_such_module_xyz:server", "could not import no_such_module_xyz: ModuleNotFoundError"),
    ("http://127.0.0.1:9/mcp", "could not list the tools of http://127.0.0.1:9/mcp: ConnectError"),
    ("definitely-not-a-command --flag", "FileNotFoundError"),
])
def test_bad_targets_get_one_line(target, says):
    result = review(target)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    (line,) = result.stderr.strip().splitlines()
    assert says in line


def test_a_learner_file_that_fails_to_import_is_one_line(tmp_path):
    path = tmp_path / "broken.py"
    path.write_text("raise RuntimeError('boom at import')\n")
    with pytest.raises(targets.TargetProblem, match="could not import .*broken.py: RuntimeError: boom at import"):
        targets.resolve(str(path))


def test_a_command_that_never_answers_times_out():
    with pytest.raises(targets.TargetProblem, match="gave no MCP answer within 1 s"):
        targets.list_tools(f"{sys.executable} -c 'import time; time.sleep(30)'", timeout=1)


def test_a_command_that_is_not_an_mcp_server_gets_one_line(tmp_path):
    result = review(f"{sys.executable} -c 'print(1)'")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip().count("\n") == 0 and "is not an MCP server" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_server_that_prints_a_banner_is_reviewed_with_a_note(tmp_path):
    script = tmp_path / "banner.py"
    script.write_text('print("Welcome to my server!")\nfrom mcp.server import MCPServer\n'
                      'server = MCPServer("banner", log_level="WARNING")\n\n@server.tool()\n'
                      'def get_time() -> str:\n    """Time."""\n    return "now"\n\nserver.run()\n')
    result = review(f"{sys.executable} {script}")
    assert "1 tool(s)" in result.stdout and "Traceback" not in result.stderr
    assert result.stderr.startswith("note: the server wrote text that is not JSON-RPC on stdout")


def test_probe_judges_each_tools_answer_to_schema_invalid_arguments():
    from course_lib import review, targets

    found = targets.listing("order-desk", probe=True)
    assert set(found.probed) == {tool.name for tool in found.tools}
    assert all(is_error for is_error, _ in found.probed.values())
    assert review.probe_findings(found.probed) == []
    assert [f.rule for f in review.probe_findings({"t": (False, "ok"), "u": (True, "Error executing tool u"),
                                                   "v": (True, 'File "/srv/app.py", line 3')})] == [
        "probe-accepted", "probe-hidden", "probe-leak"]


WORKING = '''#!{python}
import sys
for n in range({noise}):
    print(f"DeprecationWarning {{n}}: something old", file=sys.stderr)
from mcp.server import MCPServer

server = MCPServer("mine", log_level="WARNING")


@server.tool()
def lookup(q: str) -> str:
    """Looks things up."""
    return q


server.run()
'''


def executable(folder, name: str, text: str):
    path = folder / name
    path.write_text(text)
    path.chmod(0o755)
    return path


def test_an_executable_path_with_no_arguments_is_a_stdio_command(tmp_path):
    path = executable(tmp_path, "my-server", WORKING.format(python=sys.executable, noise=0))
    result = review(str(path))
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout.endswith(f"in 1 tool(s) of {path}\n")


def test_a_program_on_path_is_a_stdio_command_and_its_stderr_is_not_shown_when_it_works(tmp_path):
    import os

    executable(tmp_path, "my-mcp-server", WORKING.format(python=sys.executable, noise=94))
    result = review("my-mcp-server", env={**os.environ, "PATH": f"{tmp_path}{os.pathsep}{os.environ['PATH']}"})
    assert result.returncode == 0 and "in 1 tool(s) of my-mcp-server" in result.stdout
    assert result.stderr == ""  # its 94 warning lines stay out of the way


def test_a_server_that_crashes_at_start_up_says_so_with_its_last_stderr_lines(tmp_path):
    path = executable(tmp_path, "crashing", f"#!{sys.executable}\nimport sys\n"
                                            "for n in range(30):\n    print(f'loading {n}', file=sys.stderr)\n"
                                            "raise AttributeError(\"'Server' object has no attribute 'list_resources'\")\n")
    result = review(str(path))
    assert result.returncode == 2 and result.stdout == ""
    first, *rest = result.stderr.rstrip("\n").splitlines()
    assert first == f"course: {path} exited during start-up, before it answered; its last 10 line(s) on stderr:"
    assert len(rest) == 10 and all(line.startswith("  ") for line in rest)
    assert rest[-1] == "  AttributeError: 'Server' object has no attribute 'list_resources'"
    assert "MCPError" not in result.stderr and "loading 19" not in result.stderr  # 34 lines cut to the last 10


def test_a_command_that_exits_silently_says_it_exited():
    result = review(f"{sys.executable} -c pass")
    assert result.returncode == 2
    assert result.stderr == f"course: {sys.executable} -c pass exited during start-up, before it answered\n"


def test_a_command_with_unbalanced_quotes_is_one_line():
    result = review("python -c 'print(1)")
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "cannot read the command" in result.stderr and "No closing quotation" in result.stderr


@pytest.mark.parametrize("target, sdk", [
    ("node dist/index.js", "typescript"), ("npx -y @modelcontextprotocol/server-everything", "typescript"),
    ("env ALLOW_COMMANDS=ls node server.mjs", "typescript"), ("bun run server.ts", "typescript"),
    ("uvx mcp-server-time", "python"), ("python -m mcp_server_git", "python"), ("/usr/bin/python3.12 s.py", "python"),
    ("weather", "python"), ("my_server.py:build", "python"), ("pkg.app:mcp", "python"),
    ("http://127.0.0.1:8000/mcp", None), ("no-such-program-xyz", None)])
def test_the_sdk_is_read_from_the_target(target, sdk):
    assert targets.sdk_of(target) == sdk


def test_the_sdk_of_a_bare_program_is_read_from_its_first_line(tmp_path):
    python = executable(tmp_path, "py-server", f"#!{sys.executable}\n")
    node = executable(tmp_path, "js-server", "#!/usr/bin/env node\n")
    binary = executable(tmp_path, "bin-server", "\x7fELF")
    assert [targets.sdk_of(str(path)) for path in (python, node, binary)] == ["python", "typescript", None]
    assert targets.sdk_of(str(python), look=False) is None  # a snapshot's target is not looked up


def test_a_snapshot_records_the_sdk(tmp_path):
    out = tmp_path / "weather.json"
    subprocess.run([sys.executable, "-m", "course_lib.cli", "snapshot", "weather", "-o", str(out)], cwd=ROOT,
                   check=True, capture_output=True, timeout=120)
    import json

    assert json.loads(out.read_text())["sdk"] == "python"


@pytest.mark.parametrize("command", ["review", "snapshot", "diff"])
def test_a_stdio_server_gets_the_callers_environment(command):
    """A CI job's API keys reach the server it starts (the SDK's default passes only PATH, HOME and a few)."""
    import os

    target = "sh -c 'echo [$COURSE_TEST_KEY] >&2; exit 1'"
    argv = {"review": [target], "snapshot": [target], "diff": [target, str(ROOT / "tests/review_corpus/mcp-server-time.json")]}[command]
    result = subprocess.run([sys.executable, "-m", "course_lib.cli", command, *argv], cwd=ROOT, capture_output=True,
                            text=True, timeout=120, env={**os.environ, "COURSE_TEST_KEY": "sk-from-ci"})
    assert result.returncode == 2
    assert "[sk-from-ci]" in result.stderr, result.stderr
