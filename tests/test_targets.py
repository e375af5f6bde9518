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


def review(target: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "course_lib.cli", "review", target], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("form", ["file", "file:attribute", "stdio command"])
def test_review_reaches_a_learners_own_server(learner_file, form):
    target = {"file": str(learner_file), "file:attribute": f"{learner_file}:mcp",
              "stdio command": f"{sys.executable} {learner_file}"}[form]
    result = review(target)
    assert result.returncode == 1, result.stderr
    assert "- lookup: [name-intent]" in result.stdout
    assert result.stdout.strip().endswith(f"finding(s) in 1 tool(s) of {target}")


def test_review_reaches_a_module_attribute_and_a_factory():
    names = [tool.name for tool in targets.list_tools("course_lib.servers.weather:build_chain_server")]
    assert names == ["get_city_id", "get_forecast", "convert_units"]


def test_review_reaches_an_http_url():
    with ServedOverHttp("incidents") as served:
        result = review(served.url)
    assert result.returncode == 0 and "0 finding(s) in 6 tool(s)" in result.stdout


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
