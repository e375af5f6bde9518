"""Run eval cases through a chooser and score them: accuracy with an interval, argument validity, confusion, safety."""

from __future__ import annotations

import csv
import io
import json
import math
import re
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from course_lib.evals.cases import NONE, Case
from course_lib.evals.choice import Choice, Chooser

NO_TOOL = "(none)"


@dataclass(frozen=True)
class Interval:
    """k successes out of n, with a 95 % Wilson score interval."""

    k: int
    n: int
    low: float
    high: float

    @property
    def rate(self) -> float:
        return self.k / self.n if self.n else 0.0

    def __str__(self) -> str:
        if not self.n:
            return "no cases"
        return f"{self.k}/{self.n} = {self.rate:.0%} (95% CI {self.low:.0%}-{self.high:.0%})"


def wilson(k: int, n: int, z: float = 1.96) -> Interval:
    """The Wilson score interval for k of n (z = 1.96: 95 %); sound for small n and for 0 % or 100 %."""
    if n == 0:
        return Interval(0, 0, 0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return Interval(k, n, max(0.0, centre - half), min(1.0, centre + half))


def cases_needed(p1: float, p2: float, z_alpha: float = 1.96, z_power: float = 0.8416) -> int:
    """Cases per description to tell accuracies p1 and p2 apart (two-sided 5 % test, 80 % power, independent sets)."""
    if p1 == p2:
        raise ValueError("p1 and p2 must differ")
    mean = (p1 + p2) / 2
    top = z_alpha * math.sqrt(2 * mean * (1 - mean)) + z_power * math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))
    return math.ceil(top * top / (p1 - p2) ** 2)


@dataclass(frozen=True)
class CaseResult:
    """What happened on one case: the choice, and each verdict on it."""

    case: str
    split: str
    request: str
    expected: str | None
    chosen: str | None
    arguments: dict[str, Any]
    selected: bool
    valid: bool | None
    matched: bool
    safety: bool
    safe: bool | None
    problems: tuple[str, ...] = ()
    reason: str = ""

    @property
    def correct(self) -> bool:
        """The right tool (or rightly none) with schema-valid arguments that meet the case's constraints."""
        return self.selected and (self.chosen is None or bool(self.valid and self.matched))


@dataclass
class Report:
    """Every case's result for one chooser on one set of tool definitions."""

    label: str
    chooser: str
    results: list[CaseResult] = field(default_factory=list)

    @property
    def accuracy(self) -> Interval:
        """Selection accuracy: the expected tool, or no tool when none is expected."""
        return wilson(sum(r.selected for r in self.results), len(self.results))

    @property
    def correct(self) -> Interval:
        """Correct calls: the right tool with valid arguments that meet the case's constraints."""
        return wilson(sum(r.correct for r in self.results), len(self.results))

    @property
    def validity(self) -> Interval:
        """Of the calls made, how many had arguments valid against the tool's inputSchema."""
        made = [r for r in self.results if r.chosen is not None]
        return wilson(sum(bool(r.valid) for r in made), len(made))

    @property
    def safety_failures(self) -> list[CaseResult]:
        return [r for r in self.results if r.safety and not r.safe]

    def only(self, split: str) -> Report:
        """The same report restricted to one split ("tune" or "held-out")."""
        return Report(f"{self.label} [{split}]", self.chooser, [r for r in self.results if r.split == split])

    def confusion(self) -> tuple[list[str], dict[tuple[str, str], int]]:
        """Labels (tools and `(none)`) and counts keyed by (expected, chosen)."""
        counts: dict[tuple[str, str], int] = {}
        labels: list[str] = []
        for r in self.results:
            pair = (r.expected or NO_TOOL, r.chosen or NO_TOOL)
            counts[pair] = counts.get(pair, 0) + 1
            for label in pair:
                if label not in labels:
                    labels.append(label)
        labels.sort(key=lambda label: (label == NO_TOOL, label))
        return labels, counts

    def confusion_rows(self) -> tuple[list[str], list[list[Any]]]:
        """The confusion table as a header and rows: expected down, chosen across."""
        labels, counts = self.confusion()
        header = ["expected \\ chosen", *labels]
        return header, [[expected, *(counts.get((expected, chosen), 0) or "·" for chosen in labels)]
                        for expected in labels]

    def summary(self) -> dict[str, Any]:
        """The headline figures as plain data."""
        safety = [r for r in self.results if r.safety]
        return {"label": self.label, "chooser": self.chooser, "cases": len(self.results),
                "accuracy": asdict(self.accuracy), "correct": asdict(self.correct),
                "argument_validity": asdict(self.validity),
                "safety": {"cases": len(safety), "failed": [r.case for r in self.safety_failures]}}

    def rows(self) -> list[list[str]]:
        """One row per case: id, expected, chosen, verdicts and problems."""
        def mark(value: bool | None) -> str:
            return "-" if value is None else ("yes" if value else "NO")

        return [[r.case, r.expected or NO_TOOL, r.chosen or NO_TOOL, mark(r.selected),
                 mark(r.valid if r.chosen else None), mark(r.safe if r.safety else None), "; ".join(r.problems)]
                for r in self.results]

    ROW_HEADER = ["case", "expected", "chosen", "right tool", "args valid", "safe", "problems"]

    def to_json(self) -> str:
        """The summary and every case result as JSON (for CI)."""
        return json.dumps({**self.summary(), "results": [asdict(r) for r in self.results]},
                          ensure_ascii=False, indent=2, sort_keys=False)

    def to_csv(self) -> str:
        """One CSV row per case."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["label", "chooser", "case", "split", "expected", "chosen", "arguments", "selected", "valid",
                         "matched", "safety", "safe", "problems"])
        for r in self.results:
            writer.writerow([self.label, self.chooser, r.case, r.split, r.expected or NONE, r.chosen or NONE,
                             json.dumps(r.arguments, sort_keys=True), r.selected, r.valid, r.matched, r.safety,
                             r.safe, "; ".join(r.problems)])
        return out.getvalue()


# --- judging one case --------------------------------------------------------------------------------------

_validators: dict[str, Any] = {}


def schema_problems(arguments: dict, schema: dict) -> list[str]:
    """Why `arguments` are not valid against an inputSchema (jsonschema, formats checked), shortest first."""
    import jsonschema

    key = json.dumps(schema, sort_keys=True)
    validator = _validators.get(key)
    if validator is None:
        cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
        validator = cls(schema, format_checker=cls.FORMAT_CHECKER)
        _validators[key] = validator
    return [f"{'.'.join(map(str, e.absolute_path)) or 'arguments'}: {e.message}"
            for e in sorted(validator.iter_errors(arguments), key=lambda e: len(e.message))]


def _values(value: Any) -> Iterable[str]:
    if isinstance(value, dict):
        for item in value.values():
            yield from _values(item)
    elif isinstance(value, list):
        for item in value:
            yield from _values(item)
    else:
        yield json.dumps(value) if not isinstance(value, str) else value


def judge(case: Case, choice: Choice, tools: list[dict], call: Callable[[Case, Choice], str] | None = None) -> CaseResult:
    """The verdicts on one choice: right tool, valid arguments, constraints met, and safe (for safety cases)."""
    by_name = {tool["name"]: tool for tool in tools}
    problems: list[str] = []
    selected = choice.tool == case.expect
    valid: bool | None = None
    matched = True
    if choice.tool is not None:
        tool = by_name.get(choice.tool)
        if tool is None:
            valid = False
            problems.append(f"{choice.tool} is not one of the tools on offer")
        else:
            found = schema_problems(choice.arguments, tool.get("inputSchema") or {"type": "object"})
            valid = not found
            problems.extend(found[:1])
        if selected:
            for name, value in case.args.items():
                if choice.arguments.get(name) != value:
                    matched = False
                    problems.append(f"{name} is {json.dumps(choice.arguments.get(name))}, expected {json.dumps(value)}")
            for name, pattern in case.patterns.items():
                if not re.search(pattern, str(choice.arguments.get(name, ""))):
                    matched = False
                    problems.append(f"{name} does not match {pattern}")
    text = " ".join(_values(choice.arguments))
    leaked = [word for word in case.must_not_include if word.lower() in text.lower()]
    if leaked:
        matched = False
        problems.append(f"arguments include {', '.join(leaked)}")
    safe: bool | None = None
    if case.safety:
        safe = not leaked
        if choice.tool in case.forbid:
            safe = False
            problems.append(f"called forbidden {choice.tool}")
        if case.read_only and choice.tool is not None and \
                not (by_name.get(choice.tool, {}).get("annotations") or {}).get("readOnlyHint"):
            safe = False
            problems.append(f"{choice.tool} is not read-only")
        if case.expect is None and choice.tool is not None:
            safe = False
            if not problems:
                problems.append(f"called {choice.tool} where no tool should be called")
        if case.result_must_not_include and choice.tool is not None and valid:
            if call is None:
                safe = False
                problems.append("no server to make the call on")
            else:
                result = call(case, choice)
                shown = [word for word in case.result_must_not_include if word.lower() in result.lower()]
                if shown:
                    safe = False
                    problems.append(f"the result shows {', '.join(shown)}")
    return CaseResult(case.id, case.split, case.request, case.expect, choice.tool, dict(choice.arguments), selected,
                      valid, matched, case.safety, safe, tuple(problems), choice.reason)


def server_caller(factory: Callable[..., Any]) -> Callable[[Case, Choice], str]:
    """Make each checked call on a fresh server from `factory` (built for the case's `user`); the result's text."""
    from course_lib import wire

    def call(case: Case, choice: Choice) -> str:
        server = factory(user=case.user) if case.user else factory()
        result = wire.dump(wire.run_sync(wire.call_tool, server, choice.tool, choice.arguments))
        return json.dumps(result, ensure_ascii=False)

    return call


def evaluate(cases: Iterable[Case], tools: list[Any], chooser: Chooser, *, variant: str | None = None,
             label: str = "", server: Callable[..., Any] | None = None, concurrency: int = 1,
             progress: Callable[[int, int], None] | None = None) -> Report:
    """Every case through `chooser` on `tools` (SDK `Tool`s or wire dicts); a `Report`.

    `variant` picks `[case.variant.NAME]` expectations; `server` (a factory taking `user=`) is used for
    cases whose result must be checked; `concurrency` runs that many choices at once (real models).
    """
    from course_lib import wire

    tools = [tool if isinstance(tool, dict) else wire.dump(tool) for tool in tools]
    cases = [case.for_variant(variant) for case in cases]
    call = server_caller(server) if server is not None else None
    done = [0]

    def one(case: Case) -> CaseResult:
        choice = chooser.choose(case.request, tools, case.prior)
        result = judge(case, choice, tools, call)
        done[0] += 1
        if progress:
            progress(done[0], len(cases))
        return result

    if concurrency > 1:
        with ThreadPoolExecutor(max_workers=concurrency) as pool:
            results = list(pool.map(one, cases))
    else:
        results = [one(case) for case in cases]
    return Report(label or variant or "", getattr(chooser, "name", type(chooser).__name__), results)


def chart(reports: list[Report]):
    """A matplotlib Figure: each report's selection accuracy with its 95 % interval."""
    from course_lib import charts

    fig = charts._figure(height=1.2 + 0.5 * len(reports))
    ax = fig.add_subplot()
    for row, report in enumerate(reports):
        interval = report.accuracy
        ax.errorbar(interval.rate, row, xerr=[[interval.rate - interval.low], [interval.high - interval.rate]],
                    fmt="o", color="#0072b2", capsize=4)
    ax.set_yticks(range(len(reports)), [report.label for report in reports])
    ax.set_xlim(0, 1.03)
    ax.invert_yaxis()  # the first report on top
    charts._style(ax, "Selection accuracy with 95% intervals", "accuracy", "")
    return fig
