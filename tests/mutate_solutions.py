"""Mutation testing of the exercise checkers: mutate each solution's exercise code, run its checker on every mutant.

A maintainer tool, not part of the default test run (it takes minutes):

    python tests/mutate_solutions.py            # every exercise, two at a time
    python tests/mutate_solutions.py 1.2 5.1    # some exercises
    python tests/mutate_solutions.py 1.2 --show-survivors

Each mutant changes one thing inside a solution's `### BEGIN SOLUTION` region (a comparison, a boolean,
a constant or bound, a statement dropped, a decorator or keyword argument dropped, a lock replaced by a
no-op, an early `return None`, a `ToolError` turned into a plain exception, an element of a literal list
dropped). The earlier code cells of the solution notebook run first, then the mutated exercise cell, then
the checker on the object its check cell passes. A mutant is killed when the checker rejects it (or hangs
past the time limit). Mutants written by hand in `tests/mutants_hand/lNN.toml` (a whole region replaced: another
approach, a wrong field, the lesson's own answer reached another way) join the generated ones, named "by hand: ...".
Survivors must be killed by a better probe or listed, with a reason, in
`tests/mutants_equivalent/lNN.toml` (one file per lesson). Mutation libraries such as mutmut mutate files under a test suite; this
code lives in notebook cells and is judged by one function, so a small AST mutator does the job.
"""

from __future__ import annotations

import argparse
import ast
import copy
import hashlib
import io
import linecache
import json
import os
import signal
import subprocess
import sys
import tomllib
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENT = Path(__file__).with_name("mutants_equivalent")
HAND = Path(__file__).with_name("mutants_hand")
TARGET_OVERALL, TARGET_EACH = 0.90, 0.80
PER_MUTANT_SECONDS = 60

COMPARE_SWAPS = {ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE,
                 ast.GtE: ast.Gt, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}
LOCKS = {"Lock", "RLock", "Semaphore", "BoundedSemaphore", "Condition"}


@dataclass(frozen=True)
class Mutant:
    """One change to a solution: a stable description, and the mutated cell source."""

    exercise: str
    description: str
    source: str


def _segment(source: str, node: ast.AST) -> str:
    text = ast.get_source_segment(source, node) or ast.unparse(node)
    return " ".join(text.split())[:70]


class _Mutator:
    """Finds every mutation site inside the solution region of one cell."""

    def __init__(self, source: str, first: int, last: int):
        self.source, self.first, self.last = source, first, last
        self.tree = ast.parse(source)

    def inside(self, node: ast.AST) -> bool:
        line = getattr(node, "lineno", None)
        return line is not None and self.first <= line <= self.last

    def sites(self):
        """(description, function that applies the change to a copy of the tree) per mutation."""
        for node in ast.walk(self.tree):
            yield from self._node_sites(node)

    def _node_sites(self, node: ast.AST):
        where = lambda n: f"line {n.lineno - self.first + 1}"  # noqa: E731 (line within the region)
        if isinstance(node, ast.Compare) and self.inside(node):
            for index, op in enumerate(node.ops):
                if type(op) in COMPARE_SWAPS:
                    new = COMPARE_SWAPS[type(op)]
                    yield (f"{where(node)}: {type(op).__name__}->{new.__name__} in `{_segment(self.source, node)}`",
                           self._replace_op(node, index, new))
        elif isinstance(node, ast.BoolOp) and self.inside(node):
            new = ast.Or if isinstance(node.op, ast.And) else ast.And
            yield f"{where(node)}: and/or swapped in `{_segment(self.source, node)}`", self._set(node, "op", new())
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not) and self.inside(node):
            yield f"{where(node)}: `not` dropped in `{_segment(self.source, node)}`", self._swap(node, node.operand)
        elif isinstance(node, ast.Constant) and self.inside(node):
            yield from self._constant_sites(node, where(node))
        elif isinstance(node, ast.Return) and node.value is not None and self.inside(node):
            if not (isinstance(node.value, ast.Constant) and node.value.value is None):
                yield (f"{where(node)}: `{_segment(self.source, node)}` returns None instead",
                       self._set(node, "value", ast.Constant(None)))
        elif isinstance(node, ast.Raise) and node.exc is not None and self.inside(node):
            call = node.exc if isinstance(node.exc, ast.Call) else None
            if call is not None and ast.unparse(call.func).endswith("ToolError"):
                yield (f"{where(node)}: ToolError raised as a plain ValueError in `{_segment(self.source, node)}`",
                       self._set(call, "func", ast.Name("ValueError", ast.Load())))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for index, decorator in enumerate(node.decorator_list):
                if self.inside(decorator):
                    yield (f"{where(decorator)}: decorator @{_segment(self.source, decorator)} dropped",
                           self._drop(node, "decorator_list", index))
        if isinstance(node, ast.Call) and self.inside(node):
            for index, keyword in enumerate(node.keywords):
                if keyword.arg is not None:
                    yield (f"{where(node)}: keyword {keyword.arg}= dropped from `{_segment(self.source, node)}`",
                           self._drop(node, "keywords", index))
            name = ast.unparse(node.func).rsplit(".", 1)[-1]
            if name in LOCKS:
                yield (f"{where(node)}: {name}() replaced by contextlib.nullcontext()",
                       self._swap(node, ast.parse("__import__('contextlib').nullcontext()", mode="eval").body))
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)) and self.inside(node) and len(node.elts) > 1:
            for index, element in enumerate(node.elts):
                yield (f"{where(node)}: element `{_segment(self.source, element)}` dropped from "
                       f"`{_segment(self.source, node)}`", self._drop(node, "elts", index))
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list):
                for index, statement in enumerate(block):
                    if isinstance(statement, ast.stmt) and self.inside(statement) and not _is_docstring(block, index):
                        yield (f"{where(statement)}: statement `{_segment(self.source, statement)}` dropped",
                               self._drop_statement(node, field, index))

    def _constant_sites(self, node: ast.Constant, where: str):
        value = node.value
        if isinstance(value, bool):
            yield f"{where}: {value} -> {not value}", self._set(node, "value", not value)
        elif isinstance(value, int):
            yield f"{where}: {value} -> {value + 1}", self._set(node, "value", value + 1)
            yield f"{where}: {value} -> {value - 1}", self._set(node, "value", value - 1)
        elif isinstance(value, float):
            yield f"{where}: {value} -> {value * 2 or 1.0}", self._set(node, "value", value * 2 or 1.0)
        elif isinstance(value, str) and value.strip():
            yield f"{where}: string {value[:40]!r} emptied", self._set(node, "value", "")

    # each helper returns a function that, given a fresh copy of the tree, finds the node again and changes it
    def _locate(self, node):
        path = self._path(node)

        def find(tree):
            current = tree
            for field, index in path:
                current = getattr(current, field)
                if index is not None:
                    current = current[index]
            return current

        return find

    def _path(self, target):
        def search(node, trail):
            if node is target:
                return trail
            for field, value in ast.iter_fields(node):
                if isinstance(value, list):
                    for index, item in enumerate(value):
                        if isinstance(item, ast.AST):
                            found = search(item, trail + [(field, index)])
                            if found is not None:
                                return found
                elif isinstance(value, ast.AST):
                    found = search(value, trail + [(field, None)])
                    if found is not None:
                        return found
            return None

        return search(self.tree, [])

    def _set(self, node, field, value):
        find = self._locate(node)
        return lambda tree: setattr(find(tree), field, copy.deepcopy(value))

    def _replace_op(self, node, index, new):
        find = self._locate(node)
        return lambda tree: find(tree).ops.__setitem__(index, new())

    def _drop(self, node, field, index):
        find = self._locate(node)
        return lambda tree: getattr(find(tree), field).pop(index)

    def _drop_statement(self, node, field, index):
        find = self._locate(node)

        def apply(tree):
            block = getattr(find(tree), field)
            block[index] = ast.Pass()

        return apply

    def _swap(self, node, replacement):
        parent, field, index = self._parent_of(node)
        find = self._locate(parent)

        def apply(tree):
            holder = find(tree)
            if index is None:
                setattr(holder, field, copy.deepcopy(replacement))
            else:
                getattr(holder, field)[index] = copy.deepcopy(replacement)

        return apply

    def _parent_of(self, target):
        for parent in ast.walk(self.tree):
            for field, value in ast.iter_fields(parent):
                if value is target:
                    return parent, field, None
                if isinstance(value, list):
                    for index, item in enumerate(value):
                        if item is target:
                            return parent, field, index
        raise LookupError("no parent")


def _is_docstring(block: list, index: int) -> bool:
    statement = block[index]
    return index == 0 and isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant) \
        and isinstance(statement.value.value, str)


def region_lines(source: str) -> tuple[int, int]:
    """The first and last line (1-based) strictly between the solution markers of a cell."""
    lines = source.splitlines()
    begin = next(i for i, line in enumerate(lines) if "### BEGIN SOLUTION" in line)
    end = next(i for i, line in enumerate(lines) if "### END SOLUTION" in line)
    return begin + 2, end


def mutants_of(exercise: str, source: str) -> list[Mutant]:
    """Every mutant of one exercise cell's solution region (source with magics already removed)."""
    first, last = region_lines(source)
    mutator = _Mutator(source, first, last)
    found, seen = [], set()
    for description, apply in mutator.sites():
        tree = copy.deepcopy(mutator.tree)
        try:
            apply(tree)
            mutated = ast.unparse(ast.fix_missing_locations(tree))
        except Exception:  # a change that makes no valid program is not a mutant
            continue
        if mutated == ast.unparse(mutator.tree) or mutated in seen:
            continue
        seen.add(mutated)
        found.append(Mutant(exercise, description, mutated))
    return found


def with_region(source: str, region: str) -> str:
    """`source` with the lines between its solution markers replaced by `region` (indented as the markers are)."""
    import textwrap

    lines = source.splitlines()
    begin = next(i for i, line in enumerate(lines) if "### BEGIN SOLUTION" in line)
    end = next(i for i, line in enumerate(lines) if "### END SOLUTION" in line)
    indent = lines[begin][:len(lines[begin]) - len(lines[begin].lstrip())]
    body = textwrap.indent(textwrap.dedent(region).strip("\n"), indent).splitlines()
    return "\n".join(lines[:begin + 1] + body + lines[end:]) + "\n"


def hand_mutants(exercise: str, source: str) -> list[Mutant]:
    """The mutants of one exercise written by hand in `tests/mutants_hand/*.toml`, applied to its cell."""
    found = []
    for path in sorted(HAND.glob("*.toml")):
        with path.open("rb") as file:
            for entry in tomllib.load(file).get("mutant", []):
                if entry["exercise"] == exercise:
                    found.append(Mutant(exercise, f"by hand: {entry['description']}",
                                        with_region(source, entry["region"])))
    return found


def _code(source: str) -> str:
    """A cell as plain Python: magics and IPython-only setup (`get_ipython()...`) dropped."""
    return "\n".join("" if line.lstrip().startswith(("%", "!", "get_ipython()")) else line
                     for line in source.splitlines())


def exercise_context(exercise: str) -> tuple[list[str], str, str]:
    """(earlier code cells, the exercise cell, the expression its check cell passes to the checker)."""
    from course_lib.workbook import build, manifest

    lesson = manifest.lesson_of(exercise)
    notebook = build.read(lesson.notebook(ROOT, "solutions"))
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    pair = next(p for p in build.exercise_pairs(notebook) if str(p.exercise.id) == exercise)
    checks = {p.check_cell for p in build.exercise_pairs(notebook)}
    before = [_code(cell.source) for index, cell in enumerate(code[:pair.exercise_cell]) if index not in checks]
    call = ast.parse(_code(code[pair.check_cell].source)).body[-1].value
    return before, _code(code[pair.exercise_cell].source), ast.unparse(call.args[0])


def _run_cell(source: str, namespace: dict) -> None:
    import inspect

    from course_lib import wire

    filename = f"<cell-{hashlib.sha256(source.encode()).hexdigest()[:12]}>"  # as IPython does: inspect finds it
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    compiled = compile(source, filename, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    result = eval(compiled, namespace)  # noqa: S307 (the course's own solution cells)
    if inspect.iscoroutine(result):
        async def finish():
            return await result
        wire.run_sync(finish)


def _cell_namespace(name: str, values: dict) -> dict:
    """A fresh module's namespace holding `values`, registered in sys.modules as IPython's `__main__` is: pydantic
    resolves a model's annotations in its module, so a model defined in a cell must find the cell's names there."""
    import types

    module = types.ModuleType(name)
    module.__dict__.update({key: value for key, value in values.items() if key not in ("__name__", "__spec__")})
    sys.modules[name] = module
    return module.__dict__


class _Timeout(Exception):
    pass


def judge(exercise: str, mutants: list[Mutant]) -> list[dict]:
    """Run the checker on each mutant (in this process, strict: failures raise); each verdict as a dict."""
    from course_lib.checks.core import STRICT_ENV

    saved = os.environ.get(STRICT_ENV)
    os.environ[STRICT_ENV] = "1"
    try:
        return _judge(exercise, mutants)
    finally:
        if saved is None:
            os.environ.pop(STRICT_ENV, None)
        else:
            os.environ[STRICT_ENV] = saved


def _judge(exercise: str, mutants: list[Mutant]) -> list[dict]:
    from course_lib import checks

    before, _, argument = exercise_context(exercise)
    base = _cell_namespace("course_cells", {"display": lambda *a, **k: None})
    with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
        for cell in before:
            _run_cell(cell, base)
    checker = checks.registered(exercise)

    def alarm(signum, frame):
        raise _Timeout()

    signal.signal(signal.SIGALRM, alarm)
    verdicts = []
    for mutant in mutants:
        namespace = _cell_namespace("course_cells_mutant", base)
        signal.alarm(PER_MUTANT_SECONDS)
        try:
            with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
                _run_cell(mutant.source, namespace)
                checker(eval(argument, namespace))  # noqa: S307
            verdict, why = "survived", ""
        except _Timeout:
            verdict, why = "killed", "timeout"
        except AssertionError as error:
            verdict, why = "killed", getattr(error, "rule", "") or type(error).__name__
        except Exception as error:  # the mutant broke the cell itself
            verdict, why = "killed", f"{type(error).__name__} while building"
        finally:
            signal.alarm(0)
        verdicts.append({"exercise": exercise, "description": mutant.description, "verdict": verdict, "why": why})
    return verdicts


def equivalents() -> dict[tuple[str, str], str]:
    """(exercise, mutant description) -> the reason that mutant is equivalent."""
    found = {}
    for path in sorted(EQUIVALENT.glob("*.toml")):
        with path.open("rb") as file:
            for entry in tomllib.load(file).get("equivalent", []):
                found[(entry["exercise"], entry["mutant"])] = entry["reason"]
    return found


def _worker(exercise: str) -> None:
    _, cell, _ = exercise_context(exercise)
    print(json.dumps(judge(exercise, mutants_of(exercise, cell) + hand_mutants(exercise, cell))))


def main(argv: list[str] | None = None) -> int:
    from concurrent.futures import ThreadPoolExecutor

    from course_lib.workbook import manifest

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("exercises", nargs="*", help="exercise ids (default: all)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--show-survivors", action="store_true")
    parser.add_argument("--json", help="also write every verdict to this file")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        _worker(args.worker)
        return 0
    wanted = args.exercises or [str(e) for e in manifest.exercise_ids()]

    def run(exercise: str) -> list[dict]:
        done = subprocess.run([sys.executable, __file__, "--worker", exercise], capture_output=True, text=True,
                              cwd=ROOT, timeout=3600)
        if done.returncode != 0:
            raise SystemExit(f"mutating {exercise} failed:\n{done.stderr[-2000:]}")
        return json.loads(done.stdout.strip().splitlines()[-1])

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        verdicts = [v for result in pool.map(run, wanted) for v in result]
    known = equivalents()
    print(f"{'exercise':<9}{'mutants':>8}{'killed':>8}{'equiv':>7}{'survived':>9}{'score':>8}")
    totals = [0, 0, 0, 0]
    below = []
    for exercise in wanted:
        mine = [v for v in verdicts if v["exercise"] == exercise]
        equivalent = [v for v in mine if v["verdict"] == "survived" and (exercise, v["description"]) in known]
        survived = [v for v in mine if v["verdict"] == "survived" and (exercise, v["description"]) not in known]
        killed = [v for v in mine if v["verdict"] == "killed"]
        judged = len(killed) + len(survived)
        score = len(killed) / judged if judged else 1.0
        below += [exercise] if score < TARGET_EACH else []
        totals = [totals[0] + len(mine), totals[1] + len(killed), totals[2] + len(equivalent), totals[3] + len(survived)]
        print(f"{exercise:<9}{len(mine):>8}{len(killed):>8}{len(equivalent):>7}{len(survived):>9}{score:>8.0%}")
        if args.show_survivors:
            for v in survived:
                print(f"    survived: {v['description']}")
    overall = totals[1] / (totals[1] + totals[3]) if totals[1] + totals[3] else 1.0
    print(f"{'all':<9}{totals[0]:>8}{totals[1]:>8}{totals[2]:>7}{totals[3]:>9}{overall:>8.0%}")
    if args.json:
        Path(args.json).write_text(json.dumps(verdicts, indent=1), encoding="utf-8")
    ok = overall >= TARGET_OVERALL and not below
    print(f"targets: ≥ {TARGET_OVERALL:.0%} overall, ≥ {TARGET_EACH:.0%} each: {'met' if ok else 'NOT met'}"
          + (f" (below: {', '.join(below)})" if below else ""))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
