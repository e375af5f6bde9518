"""`course snapshot` and `course diff` in CI (issue 32): a default whose order follows the server's hash seed is
marked unstable, not reported as breaking; a missing snapshot file gets review's one-line message;
--startup-timeout; -o writes the report and prints one summary line. Servers here are real stdio processes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from course_lib import contract

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "review_corpus"

# A server whose default list comes back in the other order on every second start (as a list built from a set does
# under a new hash seed), counted in a file beside it, so the test does not depend on chance.
FLIPPING = '''
from pathlib import Path
from mcp.server import MCPServer

runs = Path(__file__).with_name("runs.txt")
count = int(runs.read_text()) if runs.exists() else 0
runs.write_text(str(count + 1))
KINDS = ["alpha", "beta", "gamma"] if count % 2 == 0 else ["gamma", "beta", "alpha"]
server = MCPServer("flipping", log_level="WARNING")


@server.tool()
def list_things(kinds: list[str] = KINDS) -> str:
    """List things of the given kinds."""
    return ",".join(kinds)


server.run()
'''


def course(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "course_lib.cli", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=180)


def test_a_default_in_another_order_from_a_second_run_is_marked_unstable_and_is_no_breaking_change(tmp_path):
    (tmp_path / "flipping.py").write_text(FLIPPING)
    target = f"{sys.executable} flipping.py"
    for name in ("one.json", "two.json"):
        assert course("snapshot", target, "-o", name, cwd=tmp_path).returncode == 0
    one, two = (contract.load_snapshot(tmp_path / name) for name in ("one.json", "two.json"))
    kinds = one["tools"][0]["inputSchema"]["properties"]["kinds"]
    assert kinds["default"] == ["alpha", "beta", "gamma"] and contract.UNSTABLE in kinds
    assert (tmp_path / "one.json").read_text() == (tmp_path / "two.json").read_text()  # deterministic
    assert (tmp_path / "runs.txt").read_text() == "4"  # each snapshot started the server twice
    # Against a live run that gives the other order, diff says unstable and safe, not breaking.
    (tmp_path / "runs.txt").write_text("5")
    live = course("diff", "one.json", target, cwd=tmp_path)
    assert live.returncode == 0, live.stdout
    row = live.stdout.splitlines()[1]
    assert "argument kinds: default order unstable" in row and " safe " in row


def test_without_the_mark_a_reordered_list_default_is_still_breaking():
    old = {"name": "t", "inputSchema": {"type": "object", "properties": {"k": {"type": "array", "default": [1, 2]}}}}
    new = {"name": "t", "inputSchema": {"type": "object", "properties": {"k": {"type": "array", "default": [2, 1]}}}}
    assert [c.breaking for c in contract.diff([old], [new])] == [True]


def test_snapshot_of_a_missing_file_says_what_review_says():
    for command in ("snapshot", "review"):
        result = course(command, "missing.json")
        assert result.returncode == 2 and result.stderr.strip() == "course: missing.json: no such snapshot file"


def test_startup_timeout_is_an_option_with_a_one_line_error():
    for command in (("review", "weather"), ("snapshot", "weather"), ("diff", "weather", "weather")):
        bad = course(*command, "--startup-timeout", "0")
        assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "--startup-timeout" in bad.stderr
    slow = f"{sys.executable} -c 'import time; time.sleep(30)'"
    late = course("review", slow, "--startup-timeout", "1")
    assert late.returncode == 2 and "within 1 s" in late.stderr and "Traceback" not in late.stderr


def test_output_file_gets_the_report_and_stdout_one_summary_line(tmp_path):
    out = tmp_path / "review.sarif"
    result = course("review", str(CORPUS / "mcp-server-fetch.json"), "--format", "sarif", "-o", str(out))
    assert result.returncode == 1
    assert result.stdout == (f"4 finding(s) (1 error, 3 warning) in 1 tool(s) of {CORPUS / 'mcp-server-fetch.json'}; "
                             f"the sarif report is in {out}\n")
    assert json.loads(out.read_text())["version"] == "2.1.0"
