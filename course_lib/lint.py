"""`course review` as a linter: settings from the project, the review of a server or a snapshot file,
reports as text, JSON or SARIF 2.1.0, and an exit code that means one thing.

| exit | meaning |
|---|---|
| 0 | no finding at or above `fail-on` (default error) |
| 1 | at least one finding at or above `fail-on` |
| 2 | could not review (a bad target, file, setting or option): one line on stderr |

Settings come from `course-review.toml` (top-level keys) or the `[tool.course.review]` table of
`pyproject.toml` in the current folder; command-line options win (`--select` replaces, `--ignore` adds).
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from course_lib import review, review_rules
from course_lib.errors import UsageError

CONFIG_FILE = "course-review.toml"
FORMATS = review_rules.FORMATS
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVELS = {"error": "error", "warning": "warning", "info": "note"}
"""SARIF's level for each severity."""
_PROBLEM = {"error": "error", "warning": "warning", "info": "recommendation"}
"""GitHub's `problem.severity` for each severity."""


@dataclass(frozen=True)
class Settings:
    """What to review and when to fail; `source` says where they were read from."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    fail_on: str = "error"
    budget: int | None = None
    sdk: str | None = None
    per_tool_ignores: dict[str, tuple[str, ...]] = field(default_factory=dict)
    source: str = ""

    def rules(self) -> set[str]:
        """The names of the rules these settings run (UsageError for an unknown id or name)."""
        chosen = review_rules.chosen(list(self.select), list(self.ignore))
        for keys in self.per_tool_ignores.values():
            review_rules.chosen(list(keys))  # an unknown rule there is an error too
        return chosen


_KEYS = {"select": "a list of rule ids or names", "ignore": "a list of rule ids or names",
         "fail-on": "one of error, warning, info", "budget": "a whole number of tokens above 0",
         "sdk": "python or typescript", "per-tool-ignores": "a table of tool name = [rule ids or names]"}


def _setting(where: str, key: str, value: Any) -> Any:
    """One checked setting, or UsageError naming the file, the key and what it must be."""
    def bad() -> UsageError:
        return UsageError(f"{where}: {key} must be {_KEYS[key]}")

    words = lambda v: isinstance(v, list) and all(isinstance(item, str) for item in v)  # noqa: E731
    if key in ("select", "ignore"):
        if not words(value):
            raise bad()
        return tuple(value)
    if key == "fail-on":
        if value not in review_rules.SEVERITIES:
            raise bad()
        return value
    if key == "budget":
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise bad()
        return value
    if key == "sdk":
        if value not in review_rules.SDKS:
            raise bad()
        return value
    if not isinstance(value, dict) or not all(words(v) for v in value.values()):
        raise bad()
    return {tool: tuple(keys) for tool, keys in value.items()}


def project_settings(folder: Path | None = None) -> Settings:
    """The settings in `course-review.toml`, else in `pyproject.toml`'s `[tool.course.review]`, else defaults."""
    folder = folder or Path.cwd()
    own, project = folder / CONFIG_FILE, folder / "pyproject.toml"
    for path, table in ((own, ()), (project, ("tool", "course", "review"))):
        if not path.is_file():
            continue
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as error:
            raise UsageError(f"{path.name}: cannot read it ({type(error).__name__})") from None
        except tomllib.TOMLDecodeError as error:
            raise UsageError(f"{path.name}: not valid TOML ({error})") from None
        for part in table:
            data = data.get(part, {}) if isinstance(data, dict) else {}
        if not data and table:
            continue
        where = path.name + (" [tool.course.review]" if table else "")
        unknown = sorted(set(data) - set(_KEYS))
        if unknown:
            raise UsageError(f"{where}: unknown setting {unknown[0]!r}; known: {', '.join(_KEYS)}")
        values = {key.replace("-", "_"): _setting(where, key, value) for key, value in data.items()}
        return Settings(**values, source=where)
    return Settings()


def with_options(settings: Settings, select: list[str] | None = None, ignore: list[str] | None = None,
                 fail_on: str | None = None, budget: int | None = None, sdk: str | None = None) -> Settings:
    """`settings` with the command line's options applied: `select` replaces, `ignore` adds, the rest win."""
    changes: dict[str, Any] = {}
    if select:
        changes["select"] = tuple(select)
    if ignore:
        changes["ignore"] = settings.ignore + tuple(ignore)
    if fail_on:
        changes["fail_on"] = fail_on
    if budget is not None:
        if budget < 1:
            raise UsageError("--budget must be a whole number of tokens above 0")
        changes["budget"] = budget
    if sdk:
        changes["sdk"] = sdk
    return replace(settings, **changes)


@dataclass(frozen=True)
class Report:
    """One review: what was reviewed, the findings that count, and the file a finding can point into."""

    target: str
    tools: list[dict]
    findings: list[review.Finding]
    settings: Settings
    server: dict[str, str] = field(default_factory=dict)
    protocol_version: str = ""
    sdk: str | None = None
    file: Path | None = None
    notes: list[str] = field(default_factory=list)
    line: int | None = None
    """For a command or URL target: the 0-based line of `file` (a workflow or config file) that names it."""

    def counts(self) -> dict[str, int]:
        """Findings per severity."""
        return {level: sum(f.severity == level for f in self.findings) for level in reversed(review_rules.SEVERITIES)}

    def exit_code(self) -> int:
        """1 when a finding is at or above `fail-on`, else 0."""
        return int(any(review_rules.at_least(f.severity, self.settings.fail_on) for f in self.findings))


NAMING_FILES = (".github/workflows/*.yml", ".github/workflows/*.yaml", ".gitlab-ci.yml", ".mcp.json", "mcp.json",
                ".vscode/mcp.json", ".cursor/mcp.json", "course-review.toml", "pyproject.toml", "Makefile", "tox.ini",
                "noxfile.py", ".pre-commit-config.yaml", "package.json")
"""Files, relative to the current folder, where CI or an MCP client names the server a review runs on."""


def naming_line(target: str, folder: Path | None = None) -> tuple[Path, int] | None:
    """The first workflow or config file (`NAMING_FILES`) with a line that names `target` (a command or a URL),
    and that line's 0-based index, so SARIF can point at where the server is named; None if none does."""
    folder = folder or Path.cwd()
    wanted = target.strip()
    for pattern in NAMING_FILES:
        for path in sorted(folder.glob(pattern)):
            try:
                lines = path.read_text(encoding="utf-8").splitlines()
            except (OSError, UnicodeDecodeError):
                continue
            found = next((i for i, line in enumerate(lines) if wanted and wanted in line), None)
            if found is not None:
                return path, found
    return None


def _code_file(target: str) -> Path | None:
    """The Python file a target names (`app.py`, `app.py:build`), when it exists."""
    spec = target.partition(":")[0] if not target.startswith(("http://", "https://")) else ""
    return Path(spec) if spec.endswith(".py") and Path(spec).is_file() else None


def run(target: str, settings: Settings, probe: bool = False, timeout: float = 30.0) -> Report:
    """Review a target (anything `course review` accepts, or a snapshot file) under `settings`; a server gets
    `timeout` seconds to start and list its tools."""
    from course_lib import contract, targets, wire

    rules = settings.rules()
    if targets.is_snapshot(target):
        snap = contract.load_snapshot(target)
        tools, server, protocol, notes, probed = snap["tools"], snap.get("server") or {}, snap.get("protocolVersion", ""), [], {}
        sdk = settings.sdk or snap.get("sdk") or targets.sdk_of(str(snap.get("target", "")), look=False)
        file: Path | None = Path(target)
        if probe:
            raise UsageError("--probe calls the server's tools; a snapshot file has no server to call")
    else:
        found = targets.listing(target, timeout, probe=probe)
        tools, protocol, notes, probed = wire.dump(found.tools), found.protocol_version, found.notes, found.probed
        server = {key: value for key, value in (("name", found.server_name), ("version", found.server_version)) if value}
        sdk, file = settings.sdk or found.sdk, _code_file(target)
        named = None if file else naming_line(target)
        if named:
            file, line = named
    findings = review.review(tools, sdk) + review.probe_findings(probed, sdk)
    if settings.budget is not None:
        findings += review.over_budget(tools, settings.budget)
    ignored = {tool: review_rules.chosen(list(keys)) for tool, keys in settings.per_tool_ignores.items()}
    kept = [f for f in findings if f.rule in rules and f.rule not in ignored.get(f.tool, ())]
    return Report(target, tools, kept, settings, server, protocol, sdk, file, notes,
                  line if not targets.is_snapshot(target) and file and not _code_file(target) else None)


# --- text and JSON ------------------------------------------------------------------------------------


def summary(report: Report) -> str:
    """The one-line summary: findings per severity, tools, target."""
    counts = ", ".join(f"{n} {level}" for level, n in report.counts().items() if n) or "none"
    return f"{len(report.findings)} finding(s) ({counts}) in {len(report.tools)} tool(s) of {report.target}"


def text(report: Report) -> str:
    """One line per finding, then a summary line."""
    lines = [f"- {f.tool or '(all tools)'}: {f.id} [{f.rule}] {f.severity}: {f.advice}" for f in report.findings]
    return "\n".join(lines + [summary(report)]) + "\n"


def as_json(report: Report) -> str:
    """The report as JSON: target, server, SDK, findings with rule id, name and severity, counts, exit code."""
    return json.dumps({
        "target": report.target, "server": report.server, "protocolVersion": report.protocol_version,
        "sdk": report.sdk, "tools": len(report.tools), "failOn": report.settings.fail_on,
        "findings": [{"tool": f.tool, "parameter": f.parameter or None, "rule": f.id, "name": f.rule,
                      "severity": f.severity, "message": f.advice} for f in report.findings],
        "counts": report.counts(), "exitCode": report.exit_code()}, indent=2, ensure_ascii=False) + "\n"


# --- SARIF 2.1.0 ------------------------------------------------------------------------------------------


def _region(lines: list[str], finding: review.Finding, file: Path, line: int | None = None) -> dict[str, int]:
    """Where in the file a finding points: its tool's name line in a snapshot (its parameter's line when it
    has one), the tool's name or function in Python code, the `line` of a workflow or config file that names a
    command or URL target, else the first line."""
    def span(index: int) -> dict[str, int]:
        line = lines[index] if lines else ""
        start = len(line) - len(line.lstrip()) + 1
        return {"startLine": index + 1, "startColumn": start, "endLine": index + 1, "endColumn": max(len(line), 1) + 1}

    if line is not None and 0 <= line < len(lines):
        return span(line)
    tool = json.dumps(finding.tool, ensure_ascii=False)
    if file.suffix == ".json":
        at = next((i for i, line in enumerate(lines) if line.strip().rstrip(",") == f'"name": {tool}'), None)
        if at is None:
            return span(0)
        if finding.parameter:
            key = json.dumps(finding.parameter, ensure_ascii=False) + ": {"
            for i in range(at - 1, -1, -1):
                if lines[i].strip() == key:
                    return span(i)
                if lines[i].strip() == "{" and len(lines[i]) - len(lines[i].lstrip()) <= 4:
                    break
        return span(at)
    for i, line in enumerate(lines):
        if finding.tool and (f"def {finding.tool}(" in line or f'"{finding.tool}"' in line or f"'{finding.tool}'" in line):
            return span(i)
    return span(0)


def _artifact(file: Path, root: Path) -> dict[str, str]:
    """A file's artifactLocation: relative to the source root when inside it, else an absolute file URI."""
    resolved = file.resolve()
    try:
        return {"uri": resolved.relative_to(root).as_posix(), "uriBaseId": "%SRCROOT%"}
    except ValueError:
        return {"uri": resolved.as_uri()}


def _fingerprint(finding: review.Finding) -> str:
    """A result's identity across runs: its rule, tool, parameter and message, not its line (lines move)."""
    key = "\0".join((finding.id, finding.tool, finding.parameter, finding.advice))
    return hashlib.sha256(key.encode()).hexdigest()[:16] + ":1"


def _descriptor(rule: review_rules.Rule) -> dict[str, Any]:
    """A rule as a SARIF reportingDescriptor with what GitHub code scanning shows."""
    return {"id": rule.id, "name": rule.name, "shortDescription": {"text": rule.summary},
            "fullDescription": {"text": rule.rationale},
            "help": {"text": rule.explain(), "markdown": rule.explain().replace("\n", "  \n")},
            "defaultConfiguration": {"level": _LEVELS[rule.severity]},
            "properties": {"tags": ["mcp", "tool-design"] + list(dict.fromkeys(
                               (["security"] if rule.id.startswith(("MCP3", "MCP7")) else []) + list(rule.tags))),
                           "problem.severity": _PROBLEM[rule.severity]}}


def sarif(report: Report, root: Path | None = None) -> dict[str, Any]:
    """The report as a SARIF 2.1.0 log: each result has its rule, level, the tool as a logical location, and,
    for a snapshot or code file, a physical location in that file (relative to `root`, default the current folder)."""
    from importlib.metadata import PackageNotFoundError, version

    root = (root or Path.cwd()).resolve()
    try:
        own_version = version("mcp-tool-design-workbook")
    except PackageNotFoundError:
        own_version = "0"
    ran = sorted(report.settings.rules(), key=lambda name: review_rules.BY_NAME[name].id)
    descriptors = [_descriptor(review_rules.BY_NAME[name]) for name in ran]
    index = {name: i for i, name in enumerate(ran)}
    lines = report.file.read_text(encoding="utf-8").splitlines() if report.file else []
    server = report.server.get("name") or report.target
    results = []
    for finding in report.findings:
        logical = ({"name": finding.tool, "fullyQualifiedName": f"{server}/{finding.tool}", "kind": "function"}
                   if finding.tool else {"name": server, "kind": "module"})
        location: dict[str, Any] = {"logicalLocations": [logical]}
        if report.file:
            location["physicalLocation"] = {"artifactLocation": _artifact(report.file, root),
                                            "region": _region(lines, finding, report.file, report.line)}
        results.append({"ruleId": finding.id, "ruleIndex": index[finding.rule], "level": _LEVELS[finding.severity],
                        "message": {"text": f"{finding.tool or server}: {finding.advice}"},
                        "locations": [location], "partialFingerprints": {"primaryLocationLineHash": _fingerprint(finding)}})
    run = {"tool": {"driver": {"name": "course review", "version": own_version, "semanticVersion": own_version,
                               "rules": descriptors}},
           "originalUriBaseIds": {"%SRCROOT%": {"uri": root.as_uri() + "/"}},
           "invocations": [{"executionSuccessful": True}],
           "columnKind": "unicodeCodePoints",
           "results": results}
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def render(report: Report, form: str) -> str:
    """The report in one of FORMATS."""
    if form == "json":
        return as_json(report)
    if form == "sarif":
        return json.dumps(sarif(report), indent=2, ensure_ascii=False) + "\n"
    return text(report)


def rule_list() -> str:
    """Every rule on one line: id, name, severity, summary, and the option it needs."""
    return "".join(f"{r.id}  {r.name:<25} {r.severity:<8} {r.summary}"
                   f"{f' (with {r.needs})' if r.needs else ''}{f' ({r.variant})' if r.variant else ''}\n"
                   for r in review_rules.RULES)
