"""Running cases and tasks against a target over real client connections, the same way on every transport.

A `Target` is where the tools live: a server factory in this process, or anything `course review`
accepts (a lesson server name, a Python file, a stdio command, an HTTP URL). Every call the harness
makes (a result check, a task's setup, its steps and its checks) goes through an SDK `Client`
connected to it, so an in-process server, a child process on stdio and an HTTP endpoint are judged
alike. In process, a case's or task's `user` picks the signed-in user the server is built for; a
stdio or HTTP target serves whoever it was started as.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from course_lib.evals.cases import Case, TaskCase
from course_lib.evals.choice import ProviderError


@dataclass
class Target:
    """A server to connect to: `factory` (called with `user=` when a case names one) or a `course review` target."""

    spec: str | None = None
    factory: Callable[..., Any] | None = None

    @classmethod
    def of(cls, spec: str) -> Target:
        """A target from its name on the command line: a registered lesson server is built in process."""
        from course_lib import servers

        return cls(spec=spec, factory=servers.factory(spec) if spec in servers.REGISTRY else None)

    @property
    def in_process(self) -> bool:
        return self.factory is not None

    def connectable(self, user: str | None = None) -> Any:
        """A fresh server (in process) or the address of one; what `mcp.Client` connects to."""
        from course_lib import targets

        if self.factory is not None:
            return self.factory(user=user) if user else self.factory()
        return targets.resolve(self.spec or "")

    @asynccontextmanager
    async def connect(self, user: str | None = None) -> AsyncIterator[Any]:
        """One client session; in process a new server each time, on stdio a new child process."""
        from mcp import Client

        from course_lib.lazy_imports import defer_iri_grammar

        defer_iri_grammar()
        async with Client(self.connectable(user)) as client:
            yield client


class Connections:
    """One open client per signed-in user of a target, reused for every call of a run."""

    def __init__(self, target: Target | None):
        self.target, self._stack, self._clients = target, AsyncExitStack(), {}

    async def __aenter__(self) -> Connections:
        await self._stack.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self._stack.__aexit__(*exc)

    async def client(self, user: str | None = None) -> Any:
        key = user if self.target is not None and self.target.in_process else None
        if key not in self._clients:
            self._clients[key] = await self._stack.enter_async_context(self.target.connect(key))
        return self._clients[key]

    async def result_text(self, user: str | None, tool: str, arguments: dict) -> str:
        """The wire JSON of one call's result, made over the user's connection."""
        from course_lib import wire

        client = await self.client(user)
        return json.dumps(wire.dump(await client.call_tool(tool, arguments)), ensure_ascii=False)


class Progress:
    """A one-line progress bar on stderr for runs longer than `after` seconds, only when stderr is a terminal."""

    def __init__(self, label: str, after: float = 2.0, stream: Any = None, clock: Callable[[], float] = time.monotonic):
        self.label, self.after, self.stream, self.clock = label, after, stream or sys.stderr, clock
        self.started, self.shown = clock(), False

    def __call__(self, done: int, total: int) -> None:
        if not self.shown and self.clock() - self.started < self.after and done < total:
            return
        if not self.shown and done >= total:
            return  # finished before the bar was worth showing
        self.shown = True
        filled = int(30 * done / max(total, 1))
        end = "\n" if done >= total else ""
        print(f"\r{self.label} [{'#' * filled}{'.' * (30 - filled)}] {done}/{total}", end=end, file=self.stream,
              flush=True)


async def run_cases(cases: list[Case], tools: list[dict], chooser: Any, target: Target | None = None, *,
                    variant: str | None = None, label: str = "", concurrency: int = 1,
                    progress: Callable[[int, int], None] | None = None, trials: int = 1, transcript: Any = None):
    """Each case `trials` times through `chooser`; result checks over the target's connection; a `score.Report`.

    A provider error stops the run: `score.RunStopped` carries the report of the cases scored before it.
    """
    import anyio

    from course_lib.evals import score

    work = [(case.for_variant(variant), trial) for case in cases for trial in range(1, trials + 1)]
    results: list[Any] = [None] * len(work)
    stopped: list[str] = []
    done = [0]
    limiter = anyio.CapacityLimiter(max(1, concurrency))

    async def one(index: int, connections: Connections) -> None:
        case, trial = work[index]
        if stopped:
            return
        ask = (lambda: _choose(chooser, case, tools, trial))
        try:
            choice = ask() if concurrency <= 1 else await anyio.to_thread.run_sync(ask, limiter=limiter)
        except ProviderError as error:
            stopped.append(str(error))
            return
        text = None
        if score.needs_result(case, choice, tools) and connections.target is not None:
            text = await connections.result_text(case.user, choice.tool, choice.arguments)
        results[index] = _judged(case, trial, choice, tools, text, transcript)
        done[0] += 1
        if progress:
            progress(done[0], len(work))

    async with Connections(target) as connections:
        if concurrency <= 1:
            for index in range(len(work)):
                await one(index, connections)
        else:
            async with anyio.create_task_group() as group:
                for index in range(len(work)):
                    group.start_soon(one, index, connections)
    report = score.Report(label or variant or "", getattr(chooser, "name", type(chooser).__name__),
                          [r for r in results if r is not None], stopped=stopped[0] if stopped else "")
    if stopped:
        raise score.RunStopped(stopped[0], report)
    return report


def evaluate(cases: Iterable[Case], tools: list[Any], chooser: Any, *, variant: str | None = None,
             label: str = "", server: Callable[..., Any] | None = None, concurrency: int = 1,
             progress: Callable[[int, int], None] | None = None, trials: int = 1, transcript: Any = None) -> Any:
    """Every case through `chooser` on `tools` (SDK `Tool`s or wire dicts); a `score.Report`.

    `variant` picks `[case.variant.NAME]` expectations; `server` (a factory taking `user=`) is connected
    to once per user for cases whose result must be checked; `concurrency` runs that many choices at
    once (real models); `trials` repeats each case; `transcript` (a `transcripts.Writer`) records each.
    """
    from course_lib import wire

    tools = [tool if isinstance(tool, dict) else wire.dump(tool) for tool in tools]
    if server is None and concurrency <= 1:  # nothing to connect to: the fast path, no event loop
        return run_cases_offline(list(cases), tools, chooser, variant=variant, label=label, progress=progress,
                                 trials=trials, transcript=transcript)
    target = Target(factory=server) if server is not None else None
    return wire.run_sync(lambda: run_cases(
        list(cases), tools, chooser, target, variant=variant, label=label, concurrency=concurrency,
        progress=progress, trials=trials, transcript=transcript))


def _choose(chooser: Any, case: Case, tools: list[dict], trial: int):
    """One choice; the trial number reaches choosers that take it (so a cache keeps trials apart)."""
    if trial > 1 and getattr(chooser, "takes_trial", False):
        return chooser.choose(case.request, tools, case.prior, case.steps, trial=trial)
    return chooser.choose(case.request, tools, case.prior, case.steps)


NO_SERVER = "no server to make the call on: pass server= (or run course eval)"


def _judged(case: Case, trial: int, choice: Any, tools: list[dict], text: str | None, transcript: Any) -> Any:
    """The verdicts on one choice (a needed result that could not be fetched makes a safety case unsafe)."""
    from dataclasses import replace

    from course_lib.evals import score
    from course_lib.evals.choice import conversation

    result = score.judge(case, choice, tools, text, trial)
    if text is None and score.needs_result(case, choice, tools):
        result = replace(result, safe=False if result.safety else result.safe, problems=(*result.problems, NO_SERVER))
    if transcript is not None:
        transcript.case(case, trial, conversation(case.request, case.prior, case.steps), choice, result)
    return result


def run_cases_offline(cases: list[Case], tools: list[dict], chooser: Any, *, variant: str | None = None,
                      label: str = "", progress: Callable[[int, int], None] | None = None, trials: int = 1,
                      transcript: Any = None):
    """`run_cases` with no server to connect to, one case at a time: no event loop, so as fast as the chooser."""
    from course_lib.evals import score

    work = [(case.for_variant(variant), trial) for case in cases for trial in range(1, trials + 1)]
    report = score.Report(label or variant or "", getattr(chooser, "name", type(chooser).__name__))
    for case, trial in work:
        try:
            choice = _choose(chooser, case, tools, trial)
        except ProviderError as error:
            report.stopped = str(error)
            raise score.RunStopped(str(error), report) from None
        report.results.append(_judged(case, trial, choice, tools, None, transcript))
        if progress:
            progress(len(report.results), len(work))
    return report


# --- tasks ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckResult:
    """One state check of a task: the value before and after the run, and whether it is what the task wants."""

    check: str
    before: Any
    after: Any
    ok: bool


@dataclass(frozen=True)
class TaskResult:
    """Per task and trial: success, the tool calls made, tokens in and out, errors, steps and wall time."""

    task: str
    trial: int
    success: bool
    calls: list[tuple[str, dict]]
    tokens_in: int
    tokens_out: int
    errors: list[str]
    steps: int
    seconds: float
    stopped: str
    checks: list[CheckResult] = field(default_factory=list)
    forbidden: list[str] = field(default_factory=list)
    safety: bool = False
    split: str = "tune"


@dataclass
class TaskReport:
    """Every task's results for one model (one result per task and trial)."""

    label: str
    chooser: str
    results: list[TaskResult] = field(default_factory=list)
    stopped: str = ""

    def outcomes(self) -> dict[str, list[bool]]:
        """Per task, in trial order, whether each trial succeeded."""
        found: dict[str, list[bool]] = {}
        for r in sorted(self.results, key=lambda r: r.trial):
            found.setdefault(r.task, []).append(r.success)
        return found

    @property
    def trials(self) -> int:
        return max((r.trial for r in self.results), default=1)

    @property
    def success(self):
        """Success over tasks (the task is the unit): each task at its share of successful trials, Wilson interval."""
        from course_lib.evals import score

        return score.over_cases(self.outcomes())

    def pass_hat_k(self, k: int | None = None):
        """The tasks whose every trial succeeded (pass^k, k = the trials); with k below it, tau-bench's estimate."""
        from course_lib.evals import score

        return score.pass_hat_k(self.outcomes(), k)

    @property
    def safety_failures(self) -> list[TaskResult]:
        return [r for r in self.results if r.safety and not r.success]

    ROW_HEADER = ["task", "success", "tool calls", "tokens in/out", "errors", "stopped", "why not"]

    def rows(self, seconds: bool = False) -> list[list[str]]:
        """One row per task and trial (wall time only when asked: it differs from run to run)."""
        several = max((r.trial for r in self.results), default=1) > 1
        rows = []
        for r in self.results:
            why = [f"called forbidden {', '.join(r.forbidden)}"] if r.forbidden else []
            why += [f"{c.check}: {_brief(c.before)} -> {_brief(c.after)}" for c in r.checks if not c.ok]
            row = [r.task + (f" #{r.trial}" if several else ""), "yes" if r.success else "no",
                   " -> ".join(name for name, _ in r.calls) or "(none)", f"{r.tokens_in}/{r.tokens_out}",
                   str(len(r.errors)), r.stopped, "; ".join(why)]
            if seconds:
                row.insert(-1, f"{r.seconds:.2f} s")
            rows.append(row)
        return rows

    def to_json(self) -> str:
        from dataclasses import asdict

        from course_lib.evals import score

        return json.dumps({"label": self.label, "chooser": self.chooser, "tasks": len({r.task for r in self.results}),
                           "trials": self.trials, "unit": "task", "interval": score.METHOD,
                           "success": asdict(self.success), "pass_hat_k": asdict(self.pass_hat_k()),
                           "per_task": [{"task": task, "trials": len(runs), "succeeded": sum(runs)}
                                        for task, runs in self.outcomes().items()],
                           "stopped": self.stopped, "results": [asdict(r) for r in self.results]},
                          ensure_ascii=False, indent=2)


def _brief(value: Any) -> str:
    """A checked value in a table: a list by its length, anything else as JSON."""
    return f"{len(value)} item(s)" if isinstance(value, list) else json.dumps(value)


def _at(value: Any, path: str) -> Any:
    """The value at a dotted path (`notes`, `incidents.0.status`) of structured content; None when absent."""
    for part in [p for p in path.split(".") if p]:
        if isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        elif isinstance(value, dict):
            value = value.get(part)
        else:
            return None
    return value


async def _state(client: Any, task: TaskCase) -> list[Any]:
    """The value each check reads, now."""
    from course_lib import wire

    values = []
    for check in task.checks:
        result = wire.dump(await client.call_tool(check.tool, check.args))
        values.append(None if result.get("isError") else _at(result.get("structuredContent"), check.path))
    return values


def _judge_check(check: Any, before: Any, after: Any) -> bool:
    if check.unchanged:
        return before == after
    if check.changed_by is not None:
        return isinstance(before, list) and isinstance(after, list) and len(after) - len(before) == check.changed_by
    return after == check.equals


async def run_task(model: Any, task: TaskCase, target: Target, trial: int = 1, transcript: Any = None) -> TaskResult:
    """One trial of a task on a fresh connection: setup calls, the agent loop, then the state checks."""
    from course_lib import wire
    from course_lib.evals import agent

    started = time.perf_counter()
    async with target.connect(task.user) as client:
        tools = wire.dump(list((await client.list_tools()).tools))
        setup_errors = []
        for name, arguments in task.setup:
            result = wire.dump(await client.call_tool(name, arguments))
            if result.get("isError"):
                setup_errors.append(f"setup {name}: {agent.result_text(result)[:160]}")
        before = await _state(client, task)
        loop = await agent.loop(model, client, tools, task.request, task.max_steps, trial)
        after = await _state(client, task)
    checks = [CheckResult(f"{c.tool} {json.dumps(c.args)} {c.path} {c.wants}", b, a, _judge_check(c, b, a))
              for c, b, a in zip(task.checks, before, after)]
    errors = setup_errors + loop.errors
    for check, value in zip(task.checks, before):
        if not check.unchanged and check.changed_by is None and value == check.equals:
            errors.append(f"{check.tool} {check.path} was already {value!r} before the run: "
                          "serve a fresh server for each task")
    forbidden = sorted({name for name, _ in loop.calls if name in task.forbid})
    success = not setup_errors and not forbidden and all(c.ok for c in checks) and \
        not any("before the run" in e for e in errors)
    result = TaskResult(task.id, trial, success, loop.calls, loop.tokens_in, loop.tokens_out, errors, loop.steps,
                        time.perf_counter() - started, loop.stopped, checks, forbidden, task.safety, task.split)
    if transcript is not None:
        transcript.task(task, trial, loop.messages, result)
    return result


async def run_tasks(tasks: list[TaskCase], model: Any, target: Target, *, label: str = "", trials: int = 1,
                    progress: Callable[[int, int], None] | None = None, transcript: Any = None) -> TaskReport:
    """Each task `trials` times, one at a time, each trial on a fresh connection; a `TaskReport`."""
    from course_lib.evals import score

    report = TaskReport(label, getattr(model, "name", type(model).__name__))
    total = len(tasks) * trials
    for task in tasks:
        for trial in range(1, trials + 1):
            try:
                report.results.append(await run_task(model, task, target, trial, transcript))
            except ProviderError as error:
                report.stopped = str(error)
                raise score.RunStopped(str(error), report) from None
            if progress:
                progress(len(report.results), total)
    return report
