"""What every exercise checker shares: registration by id, one-line outcomes, building and probing the answer.

A checker is a function of the learner's answer registered with `@checker("N.M")`. Inside it,
`require(condition, expected, found)` fails the check with one line; the function returns the
sentence that says what it verified. The decorator does the rest: it silences the SDK's log,
turns a stub into "not done", prints the ✅ line, and records the outcome as data.

In a learner's JupyterLab kernel a failed check prints its ❌ line instead of raising, so Run All
goes on and shows every exercise's status; under nbval, `course check` and `course grade` (and
everywhere else) it raises, so the cell fails.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import html
import importlib
import json
import os
import re
import secrets
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from course_lib import wire
from course_lib.errors import BULLET, CheckFailed, ExerciseNotDone, plain
from course_lib.workbook import outcomes
from course_lib.workbook.ids import ExerciseId



@dataclass(eq=False)
class _Check:
    """One running check: its exercise and the rules it found broken so far. Each check has its own, in the
    context of the thread that runs it (and of the threads `wire.run_sync` starts for it), so a check's thread
    that outlives its time can only ever touch its own, never a later check's."""

    exercise: ExerciseId
    broken: list = field(default_factory=list)


_current: contextvars.ContextVar[ExerciseId] = contextvars.ContextVar("exercise")
_check: contextvars.ContextVar[_Check] = contextvars.ContextVar("check")
wire.CARRIED.update((_current, _check))  # a check's helpers in a run_sync thread see the check that runs them
_active: list[_Check] = []
"""The checks running in this process: a thread without a check's context (one the bridge answers the kernel in)
sees the check only when exactly one runs, never a guess between several."""
_active_lock = threading.Lock()


def _running_check() -> _Check | None:
    found = _check.get(None)
    if found is None:
        with _active_lock:
            found = _active[0] if len(_active) == 1 else None
    return found
REGISTRY: dict[ExerciseId, Callable[[Any], None]] = {}
SPECS: dict[ExerciseId, dict[str, Rule]] = {}
LAST: dict[ExerciseId, str] = {}
"""The latest status of each exercise checked in this process ("passed", "not done", "failed"): the summary's data."""
FAILED_RULE: dict[ExerciseId, str] = {}
"""The rule the latest failed check of each exercise found broken first (its hint's level 1 is that rule's idea)."""
STRICT_ENV = "COURSE_STRICT_CHECKS"
HIDDEN_CRASH = "Error executing tool {name}"
"""All the model reads when a tool raises a plain exception (SDK 2.3 hides its message)."""


IMPERATIVES = frozenset({
    "accept", "add", "answer", "ask", "be", "build", "call", "change", "compute", "constrain", "count", "decide",
    "decline",
    "do", "fail", "get", "give", "hold", "include", "judge", "keep", "leave", "let", "list", "make", "mark", "name",
    "never", "not", "open", "pass", "put", "read", "refuse", "register", "return", "run", "say", "send", "show",
    "still", "succeed", "take", "tell", "use", "work", "write"})
"""First words of a rule stated as an instruction ("return a pair ..."): after "expected" it reads as
"expected your answer to return a pair ..."."""
CONDITIONS = frozenset({"for", "from", "when", "if"})
"""First words of an instruction that opens with its condition ("from a trusted server, ask ..."): it reads as
"expected your answer, from a trusted server, to ask ..."."""
MOST_SHOWN = 3
"""How many broken rules one run of a check reports, in the order the check found them."""


@dataclass(frozen=True)
class Rule:
    """One property every correct answer has: as the exercise states it, and how the check probes it.

    `said` is how a failure line says the rule after "expected", when `states` does not read that way by itself
    and is not an instruction (which reads after "expected your answer to")."""

    name: str
    states: str
    probe: str
    said: str = ""

    @property
    def expected(self) -> str:
        """The rule as it reads after "expected" in a failure line."""
        if self.said:
            return self.said
        text = self.states.rstrip(" .;")
        first = text.split(" ", 1)[0].strip(",;:")
        if first in IMPERATIVES:
            return f"your answer to {text}"
        verb = re.search(r", (%s)\b" % "|".join(sorted(IMPERATIVES)), text) if first in CONDITIONS else None
        if verb:  # "from a trusted server, ask ..." -> "your answer, from a trusted server, to ask ..."
            return f"your answer, {text[:verb.start()]}, to {text[verb.start() + 2:]}"
        return text


def spec(*rules: tuple[str, ...]) -> tuple[Rule, ...]:
    """An exercise's specification: (name, what the exercise text states, how it is probed[, how a failure line
    says it after "expected"]) per rule."""
    found = tuple(Rule(*rule) for rule in rules)
    if len({rule.name for rule in found}) != len(found):
        raise ValueError("two rules share a name")
    return found


def current() -> ExerciseId:
    """The exercise whose check is running (also from a worker thread that runs a client for the check)."""
    found = _current.get(None) or getattr(_running_check(), "exercise", None)
    if found is None:
        raise LookupError("no check is running")
    return found


def shown(text: Any, limit: int = 160) -> str:
    """`text` on one line; when long, its start and its end cut at word boundaries, never mid-word."""
    text = " ".join(str(text).split())
    if len(text) <= limit:
        return text
    head = text[: limit - 50].rsplit(" ", 1)[0]
    tail = text[-40:].split(" ", 1)[-1]  # from the first word boundary in the last 40 characters, if any
    return f"{head} … {tail}"


def quoted(text: Any, limit: int = 160) -> str:
    """Text the learner's code produced, `shown` in quotes so a failure line sets it apart from its own words
    ("found an error: 'Error: boom'"); "" for no text, so `quoted(x) or "no description"` reads. Text that
    already stands in quotes (a KeyError's `'city'`) keeps its own."""
    text = shown(text, limit)
    if not text or (len(text) > 1 and text[0] == text[-1] and text[0] in "'\""):
        return text
    return f"'{text}'"


def fail(rule: str, found: Any, detail: str = "") -> CheckFailed:
    """A one-line failure of the running check: the rule as the learner read it, what was found, which hint.

    `rule` names a rule of the exercise's spec (its text becomes "expected"); without a spec it is the text.
    """
    exercise = current()
    known = SPECS.get(exercise, {}).get(rule)
    expected = _with_detail(known.expected if known else rule.rstrip(" .;"), detail)
    expected = " ".join(expected.splitlines())  # one line: a multi-failure message breaks lines at bullets only
    found = shown(found, 220).rstrip(" .;") or "nothing"
    return CheckFailed(f"Exercise {exercise}: {_sentence(expected, found)} Open {exercise.hint_call} for a hint.",
                       exercise=str(exercise), expected=expected, found=found, hint=exercise.hint_call,
                       rule=known.name if known else "")


def _with_detail(expected: str, detail: str) -> str:
    """The rule with the check's `detail` in parentheses; a rule that already ends in a parenthesis takes the
    detail inside it, after a semicolon, so no two parentheses stand back to back."""
    if not detail:
        return expected
    if expected.endswith(")"):
        return f"{expected[:-1]}; {detail})"
    return f"{expected} ({detail})"


def _sentence(expected: str, found: str, opening: str = "expected") -> str:
    """The rule and what was found as one sentence; a quoted value that ends a sentence of its own ('Time.') ends
    it, with no second full stop after the quote (walkthrough 5, N1)."""
    return f"{opening} {expected}; found {found}" + ("" if re.search(r"[.!?]['\"]$", found) else ".")


def require(condition: Any, rule: str, found: Any, detail: str = "") -> None:
    """Note a broken `rule` unless `condition` holds (`found` may be a function, called only then).

    Inside a running check the check goes on, so one run reports every rule it finds broken (up to
    MOST_SHOWN, then it stops); `raise fail(...)` stops it at once, for a probe that cannot go on."""
    if condition:
        return
    failure = fail(rule, found() if callable(found) else found, detail)
    check = _running_check()
    if check is None:
        raise failure
    broken = check.broken
    if all(_key(failure) != _key(known) for known in broken):
        broken.append(failure)
    if len(broken) >= MOST_SHOWN:
        raise _Enough(broken)


class _Enough(CheckFailed):
    """Raised when a check has found MOST_SHOWN broken rules: it need look no further."""

    def __init__(self, broken: list[CheckFailed]):
        super().__init__(str(broken[0]), exercise=broken[0].exercise, expected=broken[0].expected,
                         found=broken[0].found, hint=broken[0].hint, rule=broken[0].rule)


def _key(failure: CheckFailed) -> str:
    return failure.rule or failure.expected or str(failure)


def broken_together(broken: list[CheckFailed], complete: bool = False) -> CheckFailed:
    """One failure that reports every broken rule: a lead line that counts them, then one line per rule (each
    opening with `BULLET`) that says what the check expected and what it found. One broken rule stays one line.

    `complete` says the check ran to its end, so the count is every rule the answer breaks; otherwise the lead
    line says these are the first ones found and why there may be more."""
    first = broken[0]
    if len(broken) == 1:
        return first
    exercise = ExerciseId.parse(first.exercise)
    if complete:
        lead = f"{len(broken)} things to fix"
    elif len(broken) >= MOST_SHOWN:
        lead = f"the first {len(broken)} things to fix (a run stops at {MOST_SHOWN}, so there may be more)"
    else:
        lead = f"the first {len(broken)} things to fix (the check could not go on, so there may be more)"
    said = "".join(BULLET + _sentence(failure.expected, failure.found, "Expected") for failure in broken)
    together = CheckFailed(f"Exercise {exercise}: {lead}:{said} "
                           f"Open {exercise.hint_call} for a hint.",
                           exercise=first.exercise, expected=first.expected, found=first.found, hint=first.hint,
                           rule=first.rule)
    together.failures = list(broken)  # type: ignore[attr-defined]
    return together


def is_hidden_crash(result: dict, tool: str) -> bool:
    """Whether a wire-form result is the SDK's text for a plain exception: nothing the model can act on."""
    return bool(result.get("isError")) and result_text(result).strip() == HIDDEN_CRASH.format(name=tool)


def require_deliberate(result: dict, tool: str, rule: str, detail: str = "") -> None:
    """Fail on `rule` unless `result` is a deliberate tool error (isError with a message, not a hidden crash)."""
    if is_hidden_crash(result, tool):
        raise fail(rule, f"a hidden crash: {tool} raised a plain exception, so the model reads only "
                         f"'{HIDDEN_CRASH.format(name=tool)}' (raise ToolError with a message; lesson 03 shows why)",
                   detail)
    require(result.get("isError"), rule, lambda: f"a successful result: {quoted(result_text(result), 120)}", detail)


def not_done(error: NotImplementedError) -> ExerciseNotDone:
    """The "not done yet" failure for a stub that still raises NotImplementedError."""
    exercise = current()
    todo = " ".join(str(error).splitlines()).split(":", 1)[-1].strip().rstrip(".") or "write your answer"
    return ExerciseNotDone(f"Exercise {exercise} is not done yet: {todo}. Replace `raise NotImplementedError(...)` "
                           "with your code, run that cell, then run this check again.",
                           exercise=str(exercise), expected=todo, hint=exercise.hint_call)


def call_learner(fn: Any, *args: Any) -> Any:
    """Call the learner's function; a stub becomes `ExerciseNotDone`, a crash a `CheckFailed`.

    Under `course check`/`course grade`, `fn` lives in the submission's kernel and the call crosses the
    grading boundary: arguments and the result are data (or course objects passed by reference).
    """
    if not callable(fn):
        raise fail("a function (pass the function itself, without calling it)", _type_name(fn))
    try:
        return fn(*args)
    except NotImplementedError as error:
        raise not_done(error) from None
    except (CheckFailed, ExerciseNotDone):
        raise
    except Exception as error:  # the learner's code crashed: say so in one line
        from course_lib.workbook.boundary import BridgeClosed

        if isinstance(error, BridgeClosed):
            raise
        name = getattr(fn, "__name__", "your function")
        raise fail(f"{name}() to run", f"it raised {type(error).__name__}: {error}") from None


def learner_coroutine(fn: Any, rule: str) -> Callable[..., Any]:
    """The learner's async function as one the check can await: a plain function, a crash or a stub becomes a
    one-line failure on `rule` (or "not done"), never a traceback from inside a client."""
    import inspect

    if not callable(fn):
        raise fail(rule, f"{type(fn).__name__} {shown(repr(fn), 60)} (return the async function itself)")

    async def awaited(*args: Any) -> Any:
        try:
            pending = fn(*args)
            if not inspect.isawaitable(pending):
                raise fail(rule, f"{type(pending).__name__} (use `async def`)")
            return await pending
        except NotImplementedError as error:
            raise not_done(error) from None
        except (CheckFailed, ExerciseNotDone):
            raise
        except Exception as error:  # a crash inside the learner's coroutine: one line, its rule
            raise fail(rule, f"it raised {type(error).__name__}: {quoted(error, 120)}") from None

    return awaited


def learner_source(fn: Any) -> tuple[str, str]:
    """(the code that rebuilds the learner's function in a fresh process, its name): code only, as data.

    `cost.portable_source` gathers the function, the helpers it calls and its imports, never a value; its refusal
    (`cost.ProcessBuildError`) is left to the check, which names its rule. Across the grading boundary it gathers
    them in the kernel, whose answer is the learner's word: the grader keeps it only if it is imports and defs the
    grader itself sent the kernel to run (`_sent_by_the_grader`), so no value and no code made up there travels.
    """
    from course_lib import cost
    from course_lib.workbook import boundary

    if not callable(fn):
        raise fail("a function (pass the function itself, without calling it)", type(fn).__name__)
    if isinstance(fn, boundary.RemoteFunction):
        text = fn.apply(cost.portable_source)
        return _sent_by_the_grader(text, fn.__name__, fn._endpoint.ran), fn.__name__
    return cost.portable_source(fn), getattr(fn, "__name__", "answer")


MAX_SOURCE = 1 << 20
"""Characters of source from the kernel the grader reads (a notebook's answers are a few kB)."""


def _defs(text: str) -> set[str]:
    """Every def and class in `text` (at any depth), each as its syntax tree dumped (positions left out). A
    `%%writefile` cell's are those of the module it writes (its lines after the magic's)."""
    import ast

    if text.startswith(("%%writefile ", "%%file ")):
        text = text.partition("\n")[2]
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set()
    return {ast.dump(node) for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}


def _sent_by_the_grader(text: Any, name: str, sent: list[str]) -> str:
    """`text` (a function's portable source, as the kernel gathered it) if it is only imports and defs or classes
    found whole in the code the grader sent the kernel (`sent`), with a def of `name`; else `ProcessBuildError`."""
    import ast

    from course_lib import cost

    if not isinstance(text, str) or len(text) > MAX_SOURCE:
        raise cost.ProcessBuildError(f"the source of {name} could not be read")
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise cost.ProcessBuildError(f"the source of {name} could not be read") from None
    known = set().union(*(_defs(cell) for cell in sent)) if sent else set()
    defined = set()
    for node in tree.body:
        if isinstance(node, ast.Import) or (isinstance(node, ast.ImportFrom) and not node.level):
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and ast.dump(node) in known:
            defined.add(node.name)
            continue
        if _gathers(node, defined):
            continue
        raise cost.ProcessBuildError(f"{name} needs code that is not in your notebook's cells (line {node.lineno} "
                                     "of what the kernel sent); define it with def or class in a cell")
    if name not in defined:
        raise cost.ProcessBuildError(f"{name} is not a function defined with def in your notebook's cells")
    return text


def _gathers(node: Any, defined: set[str]) -> bool:
    """Whether `node` is `m = types.SimpleNamespace(f=f, ...)` over defs already found whole (`cost.portable_source`
    gathers a learner's module used as `m.f` so): names only, no value."""
    import ast

    call = node.value if isinstance(node, ast.Assign) else None
    return (len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and isinstance(call, ast.Call)
            and ast.dump(call.func) == ast.dump(ast.Attribute(ast.Name("types", ast.Load()), "SimpleNamespace",
                                                              ast.Load()))
            and not call.args and bool(call.keywords)
            and all(isinstance(k.value, ast.Name) and k.arg == k.value.id and k.arg in defined
                    for k in call.keywords)) if call is not None else False


def lent(data: dict) -> Any:
    """`data` to hand the learner's function by reference, for a probe that asks about one object several times
    and then looks at it (`call_learner` sends a fresh copy each time): in process the dict itself; across the
    grading boundary a `boundary.LentMapping` of it, so the dict stays here and the function reads and writes it
    from the kernel. What the probe then finds in it is the grader's own reading, never a value a process the
    learner's code ran in computed (red team 8, F1: a fresh process that rebuilt the function from its source ran
    its default arguments first, and they replaced the probe)."""
    from course_lib.workbook import boundary

    return boundary.LentMapping(data) if boundary.current() is not None else data


def machine_of(fn: Any) -> str:
    """The name of the machine where the learner's function (and the server it builds) runs: this one in process;
    across the grading boundary the kernel's, as the grader started it (never what the kernel says it is)."""
    from course_lib import review
    from course_lib.workbook.boundary import RemoteFunction

    return fn._endpoint.kernel_host if isinstance(fn, RemoteFunction) else review.hostname()


def _type_name(value: Any) -> str:
    """The type of a value, also of one that stayed in the submission's kernel."""
    return getattr(value, "type_name", None) or type(value).__name__


def is_server(value: Any) -> bool:
    """Whether `value` is an MCP server: built here, or the learner's, reached across the grading boundary."""
    from mcp.server import MCPServer

    from course_lib.workbook.boundary import RemoteServer

    return isinstance(value, (MCPServer, RemoteServer))


def build_server(factory: Callable[..., Any], *args: Any) -> Any:
    """Build the learner's server with `factory(*args)` and make sure it is an MCP server.

    Use the result only through `wire.connect`, `probe` and `session`: across the grading boundary it is
    the learner's server in the submission's kernel, reached over a real MCP transport.
    """
    server = call_learner(factory, *args)
    if not is_server(server):
        raise fail("your function to return the MCPServer it built",
                   f"{_type_name(server)} (did you forget `return server`?)")
    return server


def docstring(fn: Any) -> str | None:
    """The learner's function's docstring (cleaned as `inspect.getdoc` does), as data."""
    return _described(fn)["doc"]


def signature(fn: Any) -> dict:
    """The learner's function's signature as data: `text`, `parameters` (name, kind, annotation, default as
    text) and `returns`."""
    found = _described(fn)
    return {"text": found["signature"], "parameters": found["parameters"], "returns": found["returns"]}


def _described(fn: Any) -> dict:
    from course_lib.workbook import boundary

    found = fn.describe() if isinstance(fn, boundary.RemoteFunction) else boundary.describe(fn)
    keys = {"doc": None, "signature": None, "parameters": [], "returns": None}
    return {key: found.get(key, default) for key, default in keys.items()}


def _interactive() -> bool:
    """A learner's own JupyterLab kernel (started by a Jupyter server), not a runner collecting outcomes."""
    if os.environ.get(STRICT_ENV) or outcomes.recording():
        return False
    return bool(os.environ.get("JPY_SESSION_NAME"))


_STYLE = {"not done": ("#b45309", "#fffbeb"), "failed": ("#b91c1c", "#fef2f2"), "passed": ("#15803d", "#f0fdf4"),
          "hint": ("#1d4ed8", "#eff6ff")}
"""Border and background colour per status (and of a hint); inline styles, since an untrusted notebook strips
<style>."""


def card(kind: str, body: str) -> str:
    """`body` (HTML) in the course's styled box of `kind` (a status of `_STYLE`, or "hint"): it wraps at spaces and
    never inside a word, as JupyterLab's stream boxes do not."""
    border, background = _STYLE.get(kind, _STYLE["failed"])
    style = (f"border-left:4px solid {border};background:{background};padding:6px 10px;margin:2px 0;"
             "font-family:var(--jp-ui-font-family,sans-serif);font-size:14px;line-height:1.45;"
             "white-space:normal;word-break:normal;overflow-wrap:break-word;color:#1f2937")
    return f'<div style="{style}">{body}</div>'


def as_html(text: str) -> str:
    """Course text as HTML: escaped, `code` as the notebook shows it."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text))


def status_bundle(symbol: str, status: str, line: str, hint_call: str = "") -> dict[str, str]:
    """A status as a display bundle: plain lines (and the hint call), and the same as styled HTML. A line that
    reports several broken rules (`BULLET`) shows its lead line, then one list item per rule.

    The HTML wraps at spaces and never inside a word; JupyterLab's stderr box breaks words anywhere.
    """
    more = f"Stuck? {hint_call}" if hint_call else ""
    lead, *rules = [as_html(part) for part in line.split(BULLET)]
    body = lead + ('<ul style="margin:4px 0 2px 0;padding-left:22px">'
                   + "".join(f'<li style="margin:2px 0">{rule}</li>' for rule in rules) + "</ul>" if rules else "")
    extra = (f'{"" if rules else "<br>"}<span style="color:#4b5563">Stuck? <code>{html.escape(hint_call)}</code>'
             "</span>" if more else "")  # after a list, which ends its line already, no <br>
    return {"text/plain": f"{symbol} {plain(line)}".replace(BULLET, "\n   • ") + (f"\n   {more}" if more else ""),
            "text/html": card(status, f"{symbol} {body}{extra}")}


def _without_hint(message: str, hint_call: str) -> str:
    """A failure message without its closing "Open hints.show(...) for a hint." (shown on a line of its own)."""
    return message.replace(f" Open {hint_call} for a hint.", "").strip()


def _display(bundle: dict[str, str]) -> None:
    from IPython.display import display

    display(bundle, raw=True)


def _report(outcome: outcomes.Outcome, error: Exception | None) -> None:
    outcomes.record(outcome)
    LAST[ExerciseId.parse(outcome.exercise)] = outcome.status
    if outcome.status == "failed" and outcome.rule:
        FAILED_RULE[ExerciseId.parse(outcome.exercise)] = outcome.rule
    else:
        FAILED_RULE.pop(ExerciseId.parse(outcome.exercise), None)
    if error is None and _interactive():  # styled, so a long line wraps at spaces, never inside a word
        _display(status_bundle("✅", "passed", f"Exercise {outcome.exercise} passed: {outcome.message}"))
    elif error is None:
        print(f"✅ Exercise {outcome.exercise} passed: {outcome.message}")
    elif _interactive():  # a learner's own kernel: a styled status, and Run All goes on
        _display(status_bundle(outcome.symbol, outcome.status, _without_hint(outcome.message, outcome.hint),
                               outcome.hint))
    else:
        raise error


def not_defined(exercise: ExerciseId, name: str) -> outcomes.Outcome:
    """The "not done" outcome of a check cell run before its exercise cell defined `name`."""
    return outcomes.Outcome(str(exercise), "not done",
                            f"Exercise {exercise}: run the exercise cell above first ({name} is not defined yet).",
                            exercise.hint_call)


def _check_cell_name_error(error: BaseException, traceback) -> tuple[ExerciseId, str] | None:
    """(the exercise, the undefined name) when `error` is a NameError raised by a check cell itself on one of the
    answers it passes to its checker; else None."""
    import linecache

    from course_lib.workbook import runner

    name = getattr(error, "name", None)
    while traceback is not None and traceback.tb_next is not None:
        traceback = traceback.tb_next
    if not isinstance(error, NameError) or not name or traceback is None:
        return None
    source = "".join(linecache.getlines(traceback.tb_frame.f_code.co_filename))
    try:
        exercise, names = runner.check_call(source)
    except Exception:  # not a check cell (or not one the course wrote): the usual traceback
        return None
    return (exercise, name) if name in names else None


def _on_name_error(shell, etype, value, traceback, tb_offset=None):
    """IPython's handler for a NameError in a learner's kernel: in a check cell, a ⏳ status, not a red traceback."""
    found = _check_cell_name_error(value, traceback)
    if found is None:
        shell.showtraceback((etype, value, traceback), tb_offset=tb_offset)
        return None
    outcome = not_defined(*found)
    outcomes.record(outcome)
    LAST[found[0]] = outcome.status
    _display(status_bundle(outcome.symbol, outcome.status, outcome.message, outcome.hint))
    return None


def watch_check_cells() -> None:
    """In a learner's own kernel, make a check cell run before its exercise cell show the ⏳ status that says so
    (called when a checker is first looked up; a no-op elsewhere, and under nbval or `course check`)."""
    if not _interactive():
        return
    try:
        from IPython import get_ipython
    except ImportError:
        return
    shell = get_ipython()
    if shell is not None:
        shell.set_custom_exc((NameError,), _on_name_error)


def summary(lesson: str) -> None:
    """Print (in a learner's kernel: show) how many of a lesson's exercises passed in this kernel, and what is next."""
    from course_lib.workbook import manifest

    found = manifest.lesson(lesson)
    exercises = [ExerciseId.parse(exercise) for exercise in found.exercises]
    done = [exercise for exercise in exercises if LAST.get(exercise) == "passed"]
    waiting = [exercise for exercise in exercises if exercise not in done]
    order = manifest.lessons()
    following = order[order.index(found) + 1] if order.index(found) + 1 < len(order) else None
    checked = [exercise for exercise in waiting if LAST.get(exercise) not in (None, "not done")]
    if checked:  # its check ran and said why: point there, not at running it again
        names = " and ".join(filter(None, [", ".join(map(str, checked[:-1])), str(checked[-1])]))
        where = "the message under its check cell" if len(checked) == 1 else "the messages under their check cells"
        line = f"{len(done)} of {len(exercises)} done; {names} did not pass yet (see {where})"
    elif waiting:
        line = f"{len(done)} of {len(exercises)} done; next: {waiting[0]} (run its check cell after your answer)"
    else:
        after = f"lesson {following.number}, notebooks/{following.stem}.ipynb" if following else "the course is done"
        line = f"{len(done)} of {len(exercises)} done; next: {after}"
    symbol, status = ("❌", "failed") if checked else ("⏳", "not done") if waiting else ("✅", "passed")
    if _interactive():
        _display(status_bundle(symbol, status, line))
    else:
        print(f"{symbol} {line}")


def checker(exercise: str, rules: tuple[Rule, ...] = ()) -> Callable[[Callable[[Any], str]], Callable[[Any], None]]:
    """Register a check for exercise `exercise` ("N.M") with its spec; the check returns what it verified."""
    exercise_id = ExerciseId.parse(exercise)
    SPECS[exercise_id] = {rule.name: rule for rule in rules}

    def register(check: Callable[[Any], str]) -> Callable[[Any], None]:
        @functools.wraps(check)
        def run(answer: Any) -> None:
            running = _Check(exercise_id)
            token, state = _current.set(exercise_id), _check.set(running)
            with _active_lock:
                _active.append(running)
            error: Exception | None = None
            try:
                with wire.sdk_warnings():
                    verified = check(answer)
                outcome = outcomes.Outcome(str(exercise_id), "passed", verified)
            except _Enough:  # as many broken rules as one run reports, all in running.broken
                outcome = outcomes.Outcome(str(exercise_id), "passed", "")
            except NotImplementedError as stub:  # the answer's stub was reached outside call_learner
                error = not_done(stub)
                outcome = outcomes.Outcome(str(exercise_id), "not done", str(error), exercise_id.hint_call)
            except ExerciseNotDone as not_yet:
                error = not_yet
                outcome = outcomes.Outcome(str(exercise_id), "not done", str(error), exercise_id.hint_call)
            except CheckFailed as failed:
                error = failed
                outcome = outcomes.Outcome(str(exercise_id), "failed", str(error), exercise_id.hint_call,
                                           getattr(failed, "rule", "") or "")
            except Exception as crash:  # the answer broke an assumption of the check: still one line
                error = CheckFailed(f"Exercise {exercise_id}: the check could not use your answer: "
                                    f"{type(crash).__name__}: {' '.join(str(crash).splitlines())}. "
                                    f"Open {exercise_id.hint_call} for a hint.",
                                    exercise=str(exercise_id), hint=exercise_id.hint_call)
                outcome = outcomes.Outcome(str(exercise_id), "failed", str(error), exercise_id.hint_call)
            finally:
                _current.reset(token)
                _check.reset(state)
                with _active_lock:
                    _active.remove(running)
                broken = running.broken
            if broken:  # rules noted broken come first; a later failure joins them, a crash or stub after them
                # is their consequence (the check went on past a broken rule)
                if isinstance(error, CheckFailed) and error.rule is not None and error.expected \
                        and all(_key(error) != _key(known) for known in broken) and len(broken) < MOST_SHOWN:
                    broken.append(error)
                error = broken_together(broken, complete=error is None and len(broken) < MOST_SHOWN)
                outcome = outcomes.Outcome(str(exercise_id), "failed", str(error), exercise_id.hint_call,
                                           error.rule or "")
            _report(outcome, error)

        run.exercise = exercise_id  # type: ignore[attr-defined]
        run.rules = rules  # type: ignore[attr-defined]
        if exercise_id in REGISTRY:
            raise ValueError(f"exercise {exercise_id} has two checkers")
        REGISTRY[exercise_id] = run
        return run

    return register


@dataclass
class Probe:
    """What a real client saw: the tool definitions (wire form) and each call's result."""

    tools: list[dict]
    results: list[dict] = field(default_factory=list)

    def tool(self, name: str) -> dict:
        return next(tool for tool in self.tools if tool["name"] == name)

    @property
    def names(self) -> list[str]:
        return [tool["name"] for tool in self.tools]


def probe(server: Any, calls: list[tuple[str, dict]] | Callable[[list[dict]], list[tuple[str, dict]]] = ()) -> Probe:
    """List the server's tools and make `calls` through one real in-process client session.

    `calls` may be a function of the listed tools, for checks that first need to find a name.
    """

    async def run() -> Probe:
        async with wire.connect(server) as client:
            tools = wire.dump(list((await client.list_tools()).tools))
            planned = calls(tools) if callable(calls) else calls
            results = [wire.dump(await client.call_tool(name, args)) for name, args in planned]
        return Probe(tools, results)

    return wire.run_sync(run)


def session(server: Any, calls: list[tuple[str, dict]] | Callable[[list[dict]], list[tuple[str, dict]]]) -> Probe:
    """List the tools and make `calls` through one client; a call the client itself refuses becomes a result.

    A result whose structuredContent breaks its outputSchema makes the SDK client raise RuntimeError;
    here it becomes `{"clientError": <first line>}` so a check can name it instead of crashing.
    """
    from mcp import MCPError

    async def run() -> Probe:
        async with wire.connect(server) as client:
            tools = wire.dump(list((await client.list_tools()).tools))
            names = {tool["name"] for tool in tools}
            planned = calls(tools) if callable(calls) else calls
            results = []
            for name, arguments in planned:
                if name not in names:
                    results.append({"isError": True, "content": [{"type": "text", "text": f"no tool {name}"}]})
                    continue
                try:
                    results.append(wire.dump(await client.call_tool(name, arguments)))
                except RuntimeError as error:
                    results.append({"clientError": str(error).splitlines()[0]})
                except MCPError as error:
                    results.append({"protocolError": f"{error.code} {error.message}"})
        return Probe(tools, results)

    return wire.run_sync(run)


def outcome(result: dict) -> str:
    """A result in a few words, for a failure line."""
    if "clientError" in result:
        return f"the client refused the result: {shown(result['clientError'], 120)}"
    if "protocolError" in result:
        return f"a JSON-RPC error {result['protocolError']}"
    kind = "an error" if result.get("isError") else "a result"
    return f"{kind}: {quoted(condensed(result_text(result)), 120) or json.dumps(result.get('structuredContent'))}"


_VALIDATION = re.compile(r"\d+ validation errors? for \S+\n")
_FIELD_ERROR = re.compile(r"^(?P<field>\S[^\n]*)\n  (?P<message>[^\n\[]+?)\s*(?:\[type=[^\n]*)?$", re.MULTILINE)


def condensed(text: str) -> str:
    """A pydantic validation error as 'field: message' pairs (the field names are what a learner needs; its
    type codes, inputs and links are not), the text before it kept; any other text as it is."""
    found = _VALIDATION.search(text)
    pairs = [f"{m['field'].strip()}: {m['message'].strip()}" for m in _FIELD_ERROR.finditer(text[found.end():])] \
        if found else []
    if not pairs:
        return text
    return f"{text[:found.start()]}invalid arguments: {'; '.join(pairs)}"


def refused(result: dict) -> bool:
    return bool(result.get("isError")) or "protocolError" in result


def result_text(result: dict) -> str:
    """All text content of a wire-form result, joined."""
    return "\n".join(block.get("text", "") for block in result.get("content", []))


def drawn(examples: int, *, shrink: bool = False) -> Callable[[Callable], Callable]:
    """How a check draws its generated inputs: apply to a hypothesis `@given` test. `examples` inputs, drawn from a
    seed made here when the check runs (`secrets`: in the grader, across the grading boundary), never a derandomized
    one; explicit examples first, shrinking only with `shrink`; no database, no deadline, quiet.

    A derandomized draw is the same in every process that runs the same code, and the kernel has the checker's
    source: an answer could draw the very inputs a later check will use and have a forwarded oracle answer them
    while an earlier exercise's check runs, when calls are that check's (red team 8, F2: 7.3's fingerprints
    fetched while 7.1 was checked). Used by 0.1, 1.4, 2.3, 3.1, 3.2, 3.4, 7.1 and 7.3; 1.3 and 7.2 draw their
    backend and cases from a secret seed of their own (`l01._reseeded`, `l07._made_up_cases`)."""
    from hypothesis import HealthCheck, Phase, Verbosity, seed, settings

    phases = (Phase.explicit, Phase.generate, *((Phase.shrink,) if shrink else ()))
    made = settings(database=None, max_examples=examples, deadline=None, verbosity=Verbosity.quiet, phases=phases,
                    suppress_health_check=list(HealthCheck))
    secret = seed(secrets.randbits(64))
    return lambda test: secret(made(test))


def a_cells_call(values: Any, by_check: bool) -> bool:
    """`watched`'s default rule for a forwarded call made before the check: every call a cell made counts."""
    return not by_check


def no_earlier_call(values: Any, by_check: bool) -> bool:
    """For a check whose inputs are all drawn after it starts (`l01._reseeded`): nothing fetched before can help."""
    return False


def any_earlier_call(values: Any, by_check: bool) -> bool:
    """For a function whose every result is part of the answer (a message template), and that no earlier exercise
    may call: every call before the check counts, a cell's or an earlier check's."""
    return True


def asked_about(*inputs: Any) -> Callable[[Any, bool], bool]:
    """`watched`'s rule for a cell's call whose arguments are what the check asks the answer about: an argument
    equal to one of the inputs or to a value inside one, or a string of 8 characters or more (anywhere in the
    arguments) inside one of the inputs' strings. A call on other arguments (a try-out, a comparison on a sample
    of the learner's) cannot be a kept answer to this check, and does not count (red team rtgrade9 L2, L3)."""
    def strings_in(value: Any) -> Iterator[str]:
        if isinstance(value, str):
            yield value
        elif isinstance(value, (list, tuple, dict)):
            for item in (value.values() if isinstance(value, dict) else value):
                yield from strings_in(item)

    def values_in(value: Any) -> Iterator[str]:
        yield json.dumps(value, sort_keys=True, default=repr)
        if isinstance(value, (list, tuple, dict)):
            for item in (value.values() if isinstance(value, dict) else value):
                yield from values_in(item)

    wanted = {shape for value in inputs for shape in values_in(value)}
    texts = [text for value in inputs for text in strings_in(value)]

    def matches(values: Any, by_check: bool) -> bool:
        if by_check:
            return False
        if values is None:  # not kept (`boundary.EARLIER_BYTES`): counted
            return True
        return any(isinstance(value, (str, list, dict)) and json.dumps(value, sort_keys=True, default=repr) in wanted
                   for value in values) or any(
            len(text) >= 8 and any(text in whole for whole in texts) for value in values for text in strings_in(value))

    return matches


@contextlib.contextmanager
def watched(module: str, *names: str,
            earlier: Callable[[Any, bool], bool] = a_cells_call) -> Iterator[list[str]]:
    """Record each call to `module.name` (every public function of `module` when no name is given) while the
    block runs; each call still goes through. How a check verifies "without calling X".

    Across the grading boundary a function of `boundary.FORWARDED` is only a stub in the submission's kernel that
    sends each call here, where this watch counts it: nothing in the kernel can hide a call. Of the calls made
    before the check (`GraderBridge.before_check`: by a cell, or while an earlier check ran) those `earlier` picks
    (given the call's arguments as data and whether a check caused it) count too: by default every cell's call;
    `asked_about(...)` only those on the check's own inputs, `no_earlier_call` none (the check's inputs are all
    drawn after it starts), `any_earlier_call` all. Any other function is watched in the kernel too, and the
    calls it reports join these when the block ends (the kernel's word).
    """
    from course_lib.workbook import boundary

    if names and set(names) <= set(boundary.FORWARDED.get(module, ())):
        with watched_here(module, *names) as calls:
            yield calls
        bridge = boundary.current()
        for name in names if bridge is not None else ():  # made before the check (`GraderBridge.end_check`)
            called = f"{module.rsplit('.', 1)[-1]}.{name}"
            before = sum(call.times for call in bridge.before_check.get(called, ())
                         if earlier(call.values, call.by_check))
            calls.before += before
            calls[:0] = [called] * min(before, 1000)
        return
    with watched_here(module, *names) as calls, boundary.in_kernel(watched_here, module, *names) as there:
        yield calls
    calls.extend(there)


class Calls(list):
    """The calls a watch recorded ("module.name" each); `before` of them were made by the exercise's cells before
    the check began (across the grading boundary, for a forwarded function: `watched`)."""

    before = 0

    def times(self) -> str:
        """How often, for a check's message: "17 time(s)", or "112 time(s) before this check" (and "and 17 during
        it")."""
        during = len(self) - min(self.before, 1000)
        if not self.before:
            return f"{during} time(s)"
        return f"{self.before} time(s) before this check" + (f" and {during} during it" if during else "")

    def by_cells(self, *others: "Calls") -> bool:
        """Whether every call of `self` (and `others`) was made before the check, none while it ran."""
        every = [self, *others]
        before = sum(calls.before for calls in every)
        return bool(before) and sum(len(calls) for calls in every) <= sum(min(calls.before, 1000) for calls in every)

    def called(self, *others: "Calls") -> str:
        """What a watch of `self` (and `others`) saw, for a check's "own" message: "it called X", or, when every
        call was made before the check (a cell's, on what the check asks about), that, since the answer may not be
        the caller."""
        every = [self, *others]
        names = ", ".join(sorted({name for calls in every for name in calls}))
        before = sum(calls.before for calls in every)
        if self.by_cells(*others):
            return (f"your notebook's cells called {names} {before} time(s) before this check, on inputs it asks "
                    "your answer about, and none while it ran: a result kept from then would be the course's answer "
                    "(call it on other inputs, or after the check cell)")
        return f"it called {names}"


@contextlib.contextmanager
def course_state(factory: Callable[..., Any], *args: Any) -> Iterator[None]:
    """Enter a course-state context (`factory(*args)`, say a backend with extra rows) here and, across the
    grading boundary, in the submission's kernel too, where the learner's server reads that state."""
    from course_lib.workbook import boundary

    with factory(*args), boundary.in_kernel(factory, *args):
        yield


_COUNTER = """{kind}def _counted(*args, **kwargs):
    body, record = {key}
    record()
    return {wait}body(*args, **kwargs)
"""


def _count_at_the_function(function: Any, record: Callable[[], None]) -> Callable[[], None] | None:
    """Make every call of a plain module-level `function` call `record()` first, whatever name or reference it is
    reached by (one taken at import time too): its code is swapped for a counter that calls a copy of the
    original. The undo, or None for what cannot be counted this way (a closure, a generator, not a function)."""
    import inspect
    import types

    if (not isinstance(function, types.FunctionType) or function.__code__.co_freevars
            or inspect.isgeneratorfunction(function) or inspect.isasyncgenfunction(function)):
        return None
    body = types.FunctionType(function.__code__, function.__globals__, function.__name__, function.__defaults__)
    body.__kwdefaults__ = function.__kwdefaults__
    key = f"__course_watch_{id(function)}__"
    asynchronous = inspect.iscoroutinefunction(function)
    made: dict = {}
    exec(_COUNTER.format(kind="async " if asynchronous else "", wait="await " if asynchronous else "", key=key),
         function.__globals__, made)
    function.__globals__[key] = (body, record)
    original = function.__code__
    function.__code__ = made["_counted"].__code__

    def undo() -> None:
        function.__code__ = original
        function.__globals__.pop(key, None)

    return undo


@contextlib.contextmanager
def watched_here(module: str, *names: str) -> Iterator[list[str]]:
    """`watched` in this process only. The watch counts at each function itself (`_count_at_the_function`), so it
    sees `module.name(...)`, names imported before or while it runs, and references kept anywhere; what cannot
    be counted there is watched by replacing the module attribute."""
    target = importlib.import_module(module)
    chosen = names or tuple(name for name, value in vars(target).items()
                            if not name.startswith("_") and callable(value)
                            and getattr(value, "__module__", None) == module)
    from course_lib.workbook import boundary

    calls = Calls()
    originals = {name: getattr(target, name) for name in chosen}
    here = boundary.current()  # in a grader: this check's kernel; a call another kernel caused is not counted

    def record(name: str) -> None:
        if boundary.caused_by() in (None, here):
            calls.append(f"{module.rsplit('.', 1)[-1]}.{name}")

    def spy(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(original)
        def recorded(*args: Any, **kwargs: Any) -> Any:
            record(name)
            return original(*args, **kwargs)

        return recorded

    undos, replaced = [], {}
    for name, original in originals.items():
        undo = _count_at_the_function(original, functools.partial(record, name))
        if undo is not None:
            undos.append(undo)
        else:
            replaced[name] = original
            setattr(target, name, spy(name, original))
    try:
        yield calls
    finally:
        for undo in undos:
            undo()
        for name, original in replaced.items():
            setattr(target, name, original)


PARTS = ("isError", "content", "structuredContent", "_meta")
"""The parts of a tools/call result a model or a host reads."""


def whole(result: dict, blank: Callable[[str], str] = lambda text: text) -> dict:
    """Every part of a wire-form result a model or host can read, each string passed through `blank`.

    `blank` takes out what may differ (an ID); two answers that must be "the same" compare equal here.
    """
    def walk(value: Any) -> Any:
        if isinstance(value, str):
            return blank(value)
        if isinstance(value, dict):
            return {blank(str(key)): walk(item) for key, item in value.items()}
        if isinstance(value, list):
            return [walk(item) for item in value]
        return value

    return {part: walk(result.get(part)) for part in PARTS if part in result and part != "isError"} | \
        {"isError": bool(result.get("isError"))}


def first_difference(one: dict, other: dict) -> str:
    """The first part in which two `whole` results differ, named with both values; "" when they are the same."""
    for part in PARTS:
        if one.get(part) != other.get(part):
            if part == "content" and isinstance(one.get(part), list) and isinstance(other.get(part), list) \
                    and len(one[part]) != len(other[part]):
                return f"{len(one[part])} content block(s) against {len(other[part])}"
            return f"{part} {shown(json.dumps(one.get(part)), 90)} against {shown(json.dumps(other.get(part)), 90)}"
    return ""


def replacing(*ids: str, token: str = "<id>") -> Callable[[str], str]:
    """A `blank` for `whole` that replaces each of `ids` (the longest first) with `token`."""
    ordered = sorted((i for i in ids if i), key=len, reverse=True)
    pattern = re.compile("|".join(re.escape(i) for i in ordered)) if ordered else None
    return (lambda text: pattern.sub(token, text)) if pattern else (lambda text: text)


def texts_of(value: Any, keys: bool = True) -> list[str]:
    """Every scalar inside a JSON value (and every key, unless `keys` is false), as text."""
    if isinstance(value, dict):
        return [text for key, item in value.items()
                for text in ([str(key)] if keys else []) + texts_of(item, keys)]
    if isinstance(value, list):
        return [text for item in value for text in texts_of(item, keys)]
    return [] if value is None else [str(value)]


def holding(result: dict, values: dict[str, str]) -> str:
    """Which of `values` (label -> text) some part of a wire-form result holds, success or error alike:
    "<label> in <part>" for the first found (every text block, structuredContent, _meta), or ""."""
    names = {"content": "the text content", "structuredContent": "structuredContent", "_meta": "_meta"}
    for part, name in names.items():
        texts = texts_of(result.get(part))
        for label, value in values.items():
            if value and any(value in text for text in texts):
                return f"{label} in {name}"
    return ""
