"""Running notebooks: execute one in place (maintainers), or check one across the grading boundary.

`check()` is what `course check` and `course grade` do with a notebook. Its setup and check cells come
from the course (`reference`, the student version built from solutions/), not from the file: the
reference's setup cells run first, then the submission's own cells in its order, and where a check cell
sits, the course's checker runs here, in this process, reaching the learner's answer in the kernel
through `boundary` (a server over MCP, a function through the call bridge). The kernel is confined
(`sandbox`) and runs none of the check cells. One `Outcome` per exercise comes back, in course order;
a check cell the submission changed or removed is reported `edited` for that exercise.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import hashlib
import io
import json
import os
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from course_lib.errors import BadFile
from course_lib.workbook import build, outcomes, sandbox
from course_lib.workbook.ids import ExerciseId
from course_lib.workbook.outcomes import Outcome

REFERENCE = Path(".course") / "reference"
"""Where a student release and an autograder keep the course's own copy of each exercise notebook."""
START_SECONDS = 60
"""How long a kernel may take to start and connect its agent."""
STOP_SECONDS = 10
"""How long a checker may take to give up once its kernel is gone."""


def execute(path: Path, timeout: int = 120) -> None:
    """Run every cell of a notebook in a fresh kernel (cwd = its folder) and save the outputs.

    Cells tagged `raises-exception` may fail; any other failure leaves the file untouched and
    raises `BadFile` naming the cell.
    """
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    notebook = build.read(path)
    client = NotebookClient(notebook, timeout=timeout, kernel_name="python3", allow_errors=False,
                            record_timing=False, resources={"metadata": {"path": str(path.parent)}})
    try:
        client.execute()
    except CellExecutionError as error:
        first_line = error.evalue.splitlines()[0] if error.evalue else ""
        raise BadFile(f"{path}: a cell raised {error.ename}: {first_line}"[:300]) from None
    import nbformat

    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs = coalesced(cell.outputs)
    nbformat.write(notebook, path)


def coalesced(outputs: list) -> list:
    """`outputs` with each run of stream outputs to the same stream joined into one, as Jupyter shows them.

    How a kernel splits printed text into messages depends on timing; joined, a saved notebook is the same on
    every run.
    """
    joined: list = []
    for output in outputs:
        last = joined[-1] if joined else None
        if output.get("output_type") == "stream" and last is not None and last.get("output_type") == "stream" \
                and last.get("name") == output.get("name"):
            last["text"] = last["text"] + output["text"]
        else:
            joined.append(output)
    return joined


# --- the plan: which cells run, and where each check happens ---------------------------------------------


@dataclass(frozen=True)
class Check:
    """Where a check happens: the course's check cell for `exercise`, and what became of the submission's."""

    exercise: ExerciseId
    source: str
    changed: str = ""  # "", "comments" (only its comments or spacing), "changed" or "removed"
    moved: bool = False  # checked elsewhere than its check cell stands (`plan`)


@dataclass(frozen=True)
class Plan:
    """What to run, in order: code (a str) and checks."""

    steps: tuple[str | Check, ...]
    exercises: tuple[ExerciseId, ...]


_CALL = re.compile(r"checks\.(ex_\d{2}_\d{1,2})\s*\(")


def _normal(source: str) -> str:
    return "\n".join(line.rstrip() for line in source.strip().splitlines())


def _tags(cell) -> list:
    tags = cell.get("metadata", {}).get("tags", [])
    return tags if isinstance(tags, list) else []


def _called(source: str) -> ExerciseId | None:
    found = _CALL.search(source)
    return ExerciseId.from_checker(found.group(1)) if found else None


def _is_check_cell(cell) -> bool:
    """Tagged `check`, or nothing but calls of checkers (a check cell whose tag was lost)."""
    if "check" in _tags(cell):
        return True
    try:
        body = ast.parse(cell.source).body
    except (SyntaxError, ValueError):
        return False
    return bool(body) and all(isinstance(node, ast.Expr) and _called(ast.unparse(node)) is not None for node in body)


def plan(submission, reference) -> Plan:
    """The steps to grade `submission` with the setup and check cells of `reference` (both notebooks).

    The submission's cells run in its order, but its checks in the course's: each where its check cell stands,
    yet never later than its answer cell and the cells of the learner's own right below it (a check cell, a cell
    of this or a later exercise, or a course cell the course runs after this check ends those), and never before the check of an exercise that
    comes earlier in the course. So a check cell moved changes nothing that is counted: every call a cell made
    before a check is counted against it (`GraderBridge.end_check`), and every call made while another exercise's
    check ran is that check's, which is always one the course puts earlier (red team 8: 9.2's check cell moved
    above 9.1's let 9.2's check fetch 9.1's verdicts; 9.1's moved to the end counted the lesson's own draft cell's
    contract.diff call against 9.1). A check that runs elsewhere than its check cell stands says so (`moved`)."""
    pairs = build.exercise_pairs(reference)
    checks = {pair.exercise.id: reference_code(reference)[pair.check_cell].source for pair in pairs}
    checked_at = {pair.exercise.id: pair.check_cell for pair in pairs}  # each check cell's place in the course
    setup = [cell.source for cell in reference_code(reference) if "setup" in _tags(cell)]
    course: dict[str, int] = {}  # a course cell's code -> its last place in the course
    for place, cell in enumerate(reference_code(reference)):
        if not {"setup", "check", "exercise"} & set(_tags(cell)) and "exercise" not in cell.get("metadata", {}):
            course[_normal(cell.source)] = place
    code = [cell for cell in submission.cells if cell.get("cell_type") == "code" and isinstance(cell.get("source"), str)]
    check_cells = {index for index, cell in enumerate(code) if _is_check_cell(cell)}
    placed: dict[ExerciseId, int] = {}
    for index in sorted(check_cells):
        exercise = _called(code[index].source) or _preceding_exercise(code, index, checks, placed)
        if exercise in checks and exercise not in placed:
            placed[exercise] = index
    copies: dict[ExerciseId, list[int]] = {}
    for index, cell in enumerate(code):
        exercise = _exercise_of(cell)
        if exercise is not None:
            copies.setdefault(exercise, []).append(index)
    # a cell pasted (or duplicated) keeps its exercise id: the answer is the copy a Run All's check would see, the
    # last one above its check cell (red team 9, L4: the first copy, a stub kept above the answer, was checked)
    exercise_cells = {exercise: max([i for i in found if i < placed.get(exercise, -1)] or found[:1])
                      for exercise, found in copies.items()}

    def ran_before(index: int) -> int:
        """The last cell that runs before position `index` (a check cell's): -1 when none does."""
        return max((i for i in range(index) if i not in check_cells), default=-1)

    def ends(cell, exercise: ExerciseId) -> bool:
        """Whether `cell`, below `exercise`'s answer, ends the cells that run before its check: a cell of this or a
        later exercise (or of none of this lesson's), or a course cell the course runs only after this check. A
        copy of an earlier exercise's cell (pasted to start this answer from) or of a course cell the course runs
        before this check (pasted to look at it again) does not (red team 10, L4': either put the check in front
        of the learner's own cells below it, so an honest answer failed with an untrue "another order" note)."""
        other = _exercise_of(cell)
        if other is not None:
            return other not in checks or list(checks).index(other) >= list(checks).index(exercise)
        return course.get(_normal(cell.source), -1) > checked_at[exercise]

    def answered(index: int, exercise: ExerciseId) -> int:
        """The answer cell at `index` and the learner's own cells right below it: the last of them."""
        while index + 1 < len(code) and index + 1 not in check_cells and not ends(code[index + 1], exercise):
            index += 1
        return index

    at: dict[int, list[Check]] = {}
    earliest = -1
    for exercise, source in checks.items():
        stands = ran_before(placed[exercise]) if exercise in placed else None
        answer = answered(exercise_cells[exercise], exercise) if exercise in exercise_cells else None
        where = min(p for p in (stands, answer) if p is not None) if (stands, answer) != (None, None) \
            else ran_before(len(code))
        earliest = where = max(where, earliest)
        if exercise in placed:
            given = code[placed[exercise]].source
            changed = "" if _normal(given) == _normal(source) else "comments" if _same_code(given, source) else "changed"
            at.setdefault(where, []).append(Check(exercise, source, changed, moved=where != stands))
        else:  # removed: checked right after its answer, or at the end
            at.setdefault(where, []).append(Check(exercise, source, "removed"))
    steps: list[str | Check] = list(setup)
    steps.extend(at.get(-1, []))  # before the first cell (or a submission without code cells)
    for index, cell in enumerate(code):
        if "setup" not in _tags(cell) and index not in check_cells:
            steps.append(cell.source)
        steps.extend(at.get(index, []))
    return Plan(tuple(steps), tuple(checks))


def _same_code(one: str, other: str) -> bool:
    """Whether two cells hold the same code, whatever their comments and spacing (the same syntax tree)."""
    try:
        return ast.dump(ast.parse(one)) == ast.dump(ast.parse(other))
    except (SyntaxError, ValueError):
        return False


COMMENTS_IGNORED = ("(The check cell's comments or spacing were edited; the grader ran the course's own check "
                    "cell, so the edit was ignored and changed nothing.)")
"""Said after an outcome whose check cell differs from the course's in comments or spacing only."""
MOVED_IGNORED = ("(Your cells are in another order than the course's: the grader ran this check at the course's "
                 "place, after your answer cell and your own cells right below it and after the checks of earlier "
                 "exercises, not where its check cell stands.)")
"""Said after an outcome whose check ran elsewhere than the submission's check cell stands (`plan`)."""
EDITED_EARNS_NOTHING = "An edited check cell earns no credit: put the course's check cell back as it was."


def _exercise_of(cell) -> ExerciseId | None:
    """The exercise id in a submission cell's metadata (hostile data: anything malformed is no id)."""
    meta = cell.get("metadata", {}).get("exercise")
    if not isinstance(meta, dict):
        return None
    try:
        return ExerciseId.parse(str(meta.get("id")))
    except Exception:  # a malformed id is no exercise cell
        return None


def reference_code(notebook) -> list:
    return [cell for cell in notebook.cells if cell.cell_type == "code"]


def _preceding_exercise(code: list, index: int, checks: dict, placed: dict) -> ExerciseId | None:
    """For a tagged check cell that calls no checker: the exercise of the nearest exercise cell above it."""
    for earlier in range(index - 1, -1, -1):
        exercise = _exercise_of(code[earlier])
        if exercise is not None:
            return exercise if exercise in checks and exercise not in placed else None
    return None


def check_call(source: str) -> tuple[ExerciseId, list[str]]:
    """The exercise and the argument names of a check cell: `checks.ex_NN_M(name, ...)`."""
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "checks"):
            exercise = ExerciseId.from_checker(node.func.attr)
            if exercise is not None and all(isinstance(arg, ast.Name) for arg in node.args) and not node.keywords:
                return exercise, [arg.id for arg in node.args]
    raise BadFile(f"a check cell must call checks.ex_NN_M(name, ...) with names only: {source.strip()[:80]!r}")


def lesson_stem(path: Path, notebook=None) -> str | None:
    """The lesson notebook a submitted file is: by its name (`01_bad_tool_rewrite.ipynb`, or any name starting
    `01_`), else by its metadata (`course.lesson`); None when it is not an exercise notebook of this course."""
    from course_lib.workbook import manifest

    stems = {lesson.stem: lesson.number for lesson in manifest.lessons() if lesson.exercises}
    if path.stem in stems:
        return path.stem
    numbers = [found.group(1) for found in [re.match(r"(\d{2})_", path.name)] if found]
    meta = notebook.get("metadata", {}).get("course") if notebook is not None else None
    if isinstance(meta, dict):
        numbers.append(str(meta.get("lesson", "")))
    return next((stem for number in numbers for stem, code in stems.items() if code == number), None)


PINS = Path(__file__).with_name("reference_pins.json")
"""Written into a release's (and an autograder's) `course_lib` by `course release`: the SHA-256 of each reference
notebook in its `.course/reference`, so that a reference copy planted or edited later is refused."""


def pins(root: Path | None) -> dict[str, str]:
    """The reference hashes of the installed course (`PINS`), else of the course_lib inside `root` (a release
    checked with `--root` by an instructor's own install); {} without either (`root` None: the installed only)."""
    for found in (PINS, *([root / "course_lib" / "workbook" / PINS.name] if root is not None else [])):
        try:
            data = json.loads(build.regular_bytes(found, PINS.name, 1 << 20))
        except (BadFile, ValueError):
            continue
        if isinstance(data, dict):
            return {str(key): str(value) for key, value in data.items()}
    return {}


def reference_for(stem: str, root: Path | None):
    """The course's student version of lesson notebook `stem`: built from `root/solutions` when the course has
    them, else the copy a release or an autograder keeps in `root/.course/reference`, which must be the one the
    release pinned (`pins`); None without either. A kept copy that is not the course's own is a `BadFile`."""
    if root is None:
        return None
    solution = root / "solutions" / f"{stem}.ipynb"
    if solution.is_file():
        return build.student_version(build.read(solution))
    kept = root / REFERENCE / f"{stem}.ipynb"
    if not os.path.lexists(kept):
        return None
    shown = f"{REFERENCE.as_posix()}/{stem}.ipynb"
    data = build.regular_bytes(kept, shown)
    if pins(root).get(kept.name) != hashlib.sha256(data).hexdigest():
        raise BadFile(f"{shown} is not the course's own reference (its hash is not the one pinned when the course "
                      "was released): reinstall the course, or pass --root the course folder")
    return build.parse(data, shown)


# --- running the plan ----------------------------------------------------------------------------------


def check(path: Path, timeout: float = 60, reference=None, budget: float | None = None,
          limits: sandbox.Limits = sandbox.Limits(), *, submission=None, run_dir: Path | None = None,
          uid: int | None = None, package: Path | None = None) -> list[Outcome]:
    """Grade one notebook: each exercise's outcome, in course order.

    `reference` is the course's student version of this notebook (its setup and check cells are the ones
    that count); without it the submission's own cells are used as they are. `timeout` bounds each cell and
    each check, `budget` (if given) the whole notebook; `limits` are the kernel's resource limits. The file is
    read as data (`build.read_submission`), unless the caller read it already (`submission`). A caller that
    gives `run_dir` (and the kernel's `uid`) cleans it up itself; otherwise the run folder is made here and
    removed with everything the kernel left. With `package` (a copy of course_lib made by `kernel_package`) the
    kernel gets that copy, never the grader's own.
    """
    submission = build.read_submission(path) if submission is None else submission
    steps = plan(submission, reference if reference is not None else submission)
    own = run_dir is None
    if own:
        sandbox.sweep()
        uid = sandbox.new_uid()
        run_dir = sandbox.run_folder(uid)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()), \
                sandbox.kernels_package(package):  # a check's fresh processes get the kernel's course_lib too
            return _Run(steps, timeout, budget).outcomes(Path(run_dir), limits, uid, package)
    finally:
        if own:
            sandbox.clean_up(Path(run_dir), uid)


@contextlib.contextmanager
def kernel_package(hints: int | None = -1) -> Iterator[Path]:
    """A copy of course_lib for submissions' kernels, for as long as the block runs: its checker modules hold only
    what the checks run in the kernel (`release.kernel_side`: no checker, no helper that answers an exercise), its
    hints cut to `hints` levels (as `course release --hints`; None: as installed). Readable by any user. Beside it,
    a student release's copy with the same hints, for a check's fresh processes (`sandbox.kernels_package`)."""
    from course_lib.workbook import release

    folder = sandbox.run_folder()
    try:
        release.copy_package(folder / "course_lib", hints, kernel=True)
        release.copy_package(folder / sandbox.RELEASE_BESIDE / "course_lib", hints)  # for a check's fresh processes
        folder.chmod(0o755)
        yield folder / "course_lib"
    finally:
        sandbox.remove_tree(folder)


@contextlib.contextmanager
def learner_kernel(run_dir: Path, limits: sandbox.Limits = sandbox.Limits(), tcp: bool | None = None,
                   uid: int | None = None, package: Path | None = None) -> Iterator[tuple]:
    """A started confined kernel with the grader's agent in it, and the grader's side of the bridge.

    `KernelDied` if the kernel or its agent does not come up within START_SECONDS. `tcp` forces loopback TCP
    (what Windows gets) instead of Unix sockets.
    """
    from course_lib.workbook import boundary, kernel

    with kernel.Kernel(run_dir, limits, tcp, uid, package) as running:
        bridge = boundary.GraderBridge(run_dir, tcp)
        if running.confinement.sandbox.confined:
            bridge.kernel_host = sandbox.hostname()
        running.on_death = bridge.close
        bridge.on_overrun = running.stop  # a forwarded call ran too long
        try:
            running.start(START_SECONDS)
            started = running.run(bridge.agent_code(), START_SECONDS)
            if started.status != "ok":
                raise kernel.KernelDied(running.death() if running.exit_code is not None or running.stopped_because
                                        else f"the grader's agent did not start in the kernel ({started.status}"
                                             f"{': ' + started.ename if started.ename else ''})")
            try:
                bridge.wait_for_agent(START_SECONDS)
            except boundary.BridgeClosed as error:
                raise kernel.KernelDied(str(error)) from None
            yield running, bridge
        finally:
            bridge.close("the run is over")


def check_answer(exercise: ExerciseId, names: list[str], running, bridge, timeout: float) -> Outcome:
    """Run the course's checker for `exercise` here on the kernel's values of `names`, within `timeout` seconds.

    A check that outlives its time stops the kernel; the outcome then says `timeout` (or `kernel died` when
    the kernel died during it). A check whose MCP connection broke, whose answer sent more than the grader reads in
    one check (`boundary.MAX_CHECK_BYTES`: "too much sent: ..."), or whose kernel stopped answering, failed.
    """
    done: list[Outcome] = []
    bridge.begin_check()
    worker = threading.Thread(target=_run_checker, args=(exercise, names, bridge, done), daemon=True,
                              name=f"course-check-{exercise}")
    worker.start()
    worker.join(timeout)
    bridge.end_check()  # what the check caused is not the cells' (what a later check counts)
    if worker.is_alive():
        running.stop(f"the check of exercise {exercise} ran longer than {timeout:.0f} s")
        worker.join(STOP_SECONDS)
        return Outcome(str(exercise), "timeout", f"the check did not finish within {timeout:.0f} s")
    if running.exit_code is not None:
        return Outcome(str(exercise), "kernel died", f"{running.death()} during the check")
    outcome = done[0] if done else Outcome(str(exercise), "failed", "the check stopped without a verdict")
    if bridge.too_large:
        outcome = Outcome(str(exercise), "failed", f"{bridge.too_large}: return only what the exercise asks for, "
                                                   "and send the grader nothing else while it checks",
                          exercise.hint_call)
        bridge.broken = None
    elif bridge.broken:
        outcome = Outcome(str(exercise), "failed", f"the connection to your server broke: {bridge.broken}",
                          exercise.hint_call)
        bridge.broken = None
    elif bridge.closed and outcome.status == "passed":
        outcome = Outcome(str(exercise), "failed", f"the kernel stopped answering: {bridge.closed}")
    return outcome


def _run_checker(exercise: ExerciseId, names: list[str], bridge, done: list) -> None:
    """In a worker thread: look the answer up in the kernel, run the course's checker on it, keep its outcome."""
    from course_lib import checks
    from course_lib.workbook import boundary

    try:
        answers = [bridge.lookup(name) for name in names]
    except NameError as error:  # the exercise cell never defined it (or it raised before it did)
        from course_lib.checks.core import not_defined

        missing = getattr(error, "name", None) or next((name for name in names if f"'{name}'" in str(error)), names[0])
        done.append(not_defined(exercise, missing))
        return
    except boundary.BoundaryError as error:
        done.append(Outcome(str(exercise), "failed", f"the kernel did not answer: {error}"))
        return
    course = next((answer.course for answer in answers if getattr(answer, "course", "")), "") or next(
        (found for name, answer in zip(names, answers) if isinstance(answer, boundary.RemoteFunction)
         for found in [course_binding(name, bridge.ran)] if found), "")
    if course:
        done.append(Outcome(str(exercise), "failed", f"your answer must be your own function; it is the course's "
                                                     f"({course})", exercise.hint_call))
        return
    crossed = len(bridge.servers)
    with outcomes.collecting() as found, boundary.checking(bridge):
        try:
            checks.registered(exercise)(*answers)
        except BaseException:  # the outcome is recorded either way; a failed check raises here by design
            pass
    if found:
        judged = found[-1].status == "passed" and str(exercise) not in SELECTS_LESSON_TOOLS
        servers = bridge.servers[crossed:]
        servers = servers[:LISTED_SERVERS] + servers[LISTED_SERVERS:][-1:]
        lessons = _lessons_tools(servers, str(exercise)) if judged else ""
        done.append(Outcome(str(exercise), "failed", f"your server must define its own tools; it returned the "
                                                     f"lesson's ({lessons})", exercise.hint_call)
                    if lessons else found[-1])


def course_binding(name: str, cells: list[str]) -> str:
    """The course object `name` is bound to by the code the grader sent the kernel (`name = module.attribute` of a
    course module, or a name imported from course_lib), as "course_lib.module.attribute"; "" when its last binding
    there is anything else (a def, a value) or there is none. Read from that code, never from the kernel."""
    import ast

    bound: dict[str, str] = {}
    for cell in cells:
        try:
            tree = ast.parse(cell)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for node in tree.body:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    ours = alias.name.startswith("course_lib")
                    bound[alias.asname or alias.name.split(".")[0]] = \
                        (alias.name if alias.asname else "course_lib") if ours else ""
            elif isinstance(node, ast.ImportFrom):
                ours = (node.module or "").startswith("course_lib") and not node.level
                for alias in node.names:
                    bound[alias.asname or alias.name] = f"{node.module}.{alias.name}" if ours else ""
            elif isinstance(node, ast.Assign):
                path = _dotted(node.value, bound)
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        bound[target.id] = path
            else:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    bound[node.name] = ""
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store):
                        bound[inner.id] = ""
    return bound.get(name, "")


def _dotted(value: Any, bound: dict[str, str]) -> str:
    """"course_lib.m.a.b" for an expression `name.a.b` whose name is bound to a course module or object, else ""."""
    import ast

    if isinstance(value, ast.Name):
        return bound.get(value.id, "")
    if isinstance(value, ast.Attribute):
        base = _dotted(value.value, bound)
        return f"{base}.{value.attr}" if base else ""
    return ""


SELECTS_LESSON_TOOLS = frozenset({"6.2", "6.4"})
"""Exercises whose answer is a server of the lesson's own tools, chosen (6.2 and 6.4 pick which of the workspace
server's tools a host loads): there a server made only of lesson tools is the answer, not a copy of one."""


def _as_read(value: Any) -> Any:
    import unicodedata

    from course_lib import invisible

    if isinstance(value, str):
        text = unicodedata.normalize("NFKC", "".join(c for c in value if not invisible.is_ignorable(c)))
        return " ".join(text.casefold().split())
    if isinstance(value, dict):
        return {_as_read(str(key)): _as_read(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_as_read(item) for item in value]
    return value


NEAR_COPY_WORDS = 4
"""The most words by which a tool's prose (its description and every description and title in its input schema, as
read: `_as_read`, punctuation dropped) may differ from a lesson tool's of the same name and schema and still be that
lesson tool (word-level edit distance). Measured (tests/workbook/test_runner.py keeps both sides): the red teams'
copies differ by 0-3 words (" One city only." appended, " Lean.", " (v2)", a full stop after every description);
the honest answers in tests/answers/right and the unseen rounds 5-7 hold 74 tools (in 56 answers; 6.2, 6.4 and
9.2 apart) with a lesson tool's name and schema, the closest 5 words away (5.1's add_incident_note, 5.2's and 5.3's
get_incident, which reuse the lesson's types)."""

KEPT_LESSON_TOOLS = {"5.2": frozenset({"incident-pager.get_incident", "incident-risky.get_incident"}),
                     "9.2": frozenset({"evolving-v1"})}
"""Exercises whose answer may keep lesson tools word for word, by design (a server's name: all its tools; or
"server.tool"): 9.2 keeps every v1 tool's description; 5.2's get_incident is the later lessons' own, as
solutions/05 writes it. A tool that copies one of these is no copy in that exercise."""

LISTED_SERVERS = 4
"""How many of the servers that crossed during a check have their tools compared with the lesson's (the first ones,
and the last one): a listing each, bounded, however many servers a check builds."""

_PROSE = frozenset({"description", "title"})


@dataclass(frozen=True)
class LessonTool:
    server: str  # its name in servers.REGISTRY
    name: str  # as read
    shape: str  # its input schema without prose, as read
    words: tuple[str, ...]  # its prose, word by word


def _words(text: Any) -> tuple[str, ...]:
    read = _as_read(text) if isinstance(text, str) else ""
    return tuple("".join(c if c.isalnum() else " " for c in read).split())


def _shape(schema: Any) -> Any:
    if isinstance(schema, dict):
        return {key: _shape(value) for key, value in schema.items() if key not in _PROSE}
    if isinstance(schema, list):
        return [_shape(value) for value in schema]
    return schema


def _prose(schema: Any) -> list[Any]:
    """Every description and title in a schema, in key order (so the same schema gives the same words)."""
    if isinstance(schema, dict):
        return [text for key in sorted(schema, key=str) for text in
                ([schema[key]] if key in _PROSE else _prose(schema[key]))]
    if isinstance(schema, list):
        return [text for value in schema for text in _prose(value)]
    return []


def _lesson_tool(server: str, tool: dict) -> LessonTool:
    schema = tool.get("inputSchema") or {}
    return LessonTool(server, _as_read(str(tool.get("name", ""))), json.dumps(_as_read(_shape(schema)), sort_keys=True),
                      tuple(word for text in [tool.get("description"), *_prose(schema)] for word in _words(text)))


def _within(first: tuple[str, ...], second: tuple[str, ...], bound: int) -> bool:
    """Whether the word-level edit distance of two texts is at most `bound` (in time linear in their length)."""
    if abs(len(first) - len(second)) > bound:
        return False
    row = list(range(len(second) + 1))
    for i, word in enumerate(first, 1):
        previous, row[0] = row[0], i
        for j, other in enumerate(second, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (word != other))
        if min(row) > bound:
            return False
    return row[-1] <= bound


@functools.lru_cache(maxsize=1)
def course_tools() -> tuple[LessonTool, ...]:
    """Every tool of the course's own servers (those `servers.build` makes without arguments), as compared."""
    from course_lib import servers
    from course_lib.checks import core

    found: list[LessonTool] = []
    for name in servers.REGISTRY:
        try:
            tools = core.probe(servers.build(name)).tools
        except Exception:  # a server that needs arguments: its tools are none of these
            continue
        found.extend(_lesson_tool(name, tool) for tool in tools)
    return tuple(found)


def lessons_copy(tool: dict, exercise: str = "") -> str:
    """Why a learner's tool is a lesson server's ("search_tickets is the course's workspace server's tool"): the same
    name and input schema as a lesson tool's, its prose at most NEAR_COPY_WORDS words from that tool's; else ""."""
    mine = _lesson_tool("", tool)
    copied = [lesson for lesson in course_tools() if lesson.name == mine.name and lesson.shape == mine.shape
              and _within(lesson.words, mine.words, NEAR_COPY_WORDS)]
    kept = KEPT_LESSON_TOOLS.get(exercise, frozenset())
    if not copied or any(lesson.server in kept or f"{lesson.server}.{lesson.name}" in kept for lesson in copied):
        return ""
    return f"{str(tool.get('name'))[:60]} is the course's {copied[0].server} server's tool"


def _lessons_tools(learners: list, exercise: str = "") -> str:
    """Why a learner's server that crossed is the course's own: each of its tools that is a lesson tool, or a near
    copy of one (`lessons_copy`), however the server was built; "" when it has none. Decided from the tools the
    grader lists, never from names in the learner's code."""
    from course_lib.checks import core

    for server in learners:
        try:
            tools = core.probe(server).tools
        except Exception:  # the check itself judged what this server does
            continue
        copies = [found for tool in tools for found in [lessons_copy(tool, exercise)] if found]
        if copies:
            return "; ".join(dict.fromkeys(copies))
    return ""


class _Run:
    """One graded run of a plan: its steps in order, until the end or until the kernel stops."""

    def __init__(self, steps: Plan, timeout: float, budget: float | None):
        self.steps, self.cell_limit = steps, timeout
        self.deadline = None if budget is None else time.monotonic() + budget
        self.found: dict[ExerciseId, Outcome] = {}
        self.stopped: Outcome | None = None  # once set, every exercise not yet checked gets it
        self.cell_error = ""  # how the cell just run failed ("SyntaxError: invalid syntax"), or ""

    def outcomes(self, run_dir: Path, limits: sandbox.Limits, uid: int | None = None,
                 package: Path | None = None) -> list[Outcome]:
        from course_lib.workbook import kernel

        try:
            with learner_kernel(run_dir, limits, uid=uid, package=package) as (running, bridge):
                for index, step in enumerate(self.steps.steps):
                    if self.stopped is not None:
                        break
                    if isinstance(step, Check):
                        self._check(step, running, bridge)
                    else:
                        bridge.ran.append(step)
                        self._cell(step, running, self._which_cell(index))
        except kernel.KernelDied as error:
            self._stop("kernel died", str(error))
        return [self.found.get(exercise) or self._not_checked(exercise) for exercise in self.steps.exercises]

    @property
    def timeout(self) -> float:
        """Seconds the next cell or check may take: the cell limit, or what is left of the notebook's budget."""
        if self.deadline is None:
            return self.cell_limit
        return max(0.1, min(self.cell_limit, self.deadline - time.monotonic()))

    def _not_checked(self, exercise: ExerciseId) -> Outcome:
        if self.stopped is None:
            return Outcome(str(exercise), "skipped", "the check did not run")
        return Outcome(str(exercise), "skipped" if self.stopped.status == "kernel died" else self.stopped.status,
                       f"not checked: {self.stopped.message}")

    def _stop(self, status: str, message: str) -> None:
        """Stop the run: the next exercise not yet checked gets this outcome, the later ones `_not_checked`."""
        self.stopped = Outcome("*", status, message)
        first = next((e for e in self.steps.exercises if e not in self.found), None)
        if first is not None:
            self.found[first] = Outcome(str(first), status, message)

    def _which_cell(self, index: int) -> str:
        """The code cell at step `index` as a learner finds it: the setup cell, or a cell before the next check
        (its first line quoted: it may be the exercise's cell or one the learner added), or one after the last."""
        if index == 0:
            return "the setup cell"
        source = self.steps.steps[index]
        first = next((line.strip() for line in source.splitlines() if line.strip()), "")
        start = f" (it starts `{first[:40]}{'…' if len(first) > 40 else ''}`)" if first else ""
        after = next((step.exercise for step in self.steps.steps[index + 1:] if isinstance(step, Check)), None)
        return f"a cell before the check of exercise {after}{start}" if after else f"a cell after the last check{start}"

    def _cell(self, source: str, running, which: str = "a cell of the notebook") -> None:
        limit = self.timeout
        result = running.run(source, limit)
        error = re.sub(r" \([^()]*, line (\d+)\)", r" (line \1)", f"{result.ename}: {result.evalue}".strip(": "))
        self.cell_error = error if result.status == "error" else ""  # the kernel's temporary file name left out
        if result.status == "died":
            self._stop("kernel died", f"{running.death()} while running {which}")
        elif result.status == "timeout":
            from course_lib.workbook import boundary

            self._stop("timeout", f"{which} did not finish within {limit:.0f} s: look for a loop that never ends, "
                                  f"a call that waits, or one output over {boundary.MAX_LINE >> 20} MB (the grader "
                                  "drops such a message unread, and the cell's end with it)")

    def _check(self, step: Check, running, bridge) -> None:
        exercise, names = check_call(step.source)
        outcome = check_answer(exercise, names, running, bridge, self.timeout)
        if outcome.status == "not done" and outcome.message.endswith("is not defined yet).") and self.cell_error:
            outcome = Outcome(str(exercise), "failed", f"Exercise {exercise}: the cell above the check raised "
                              f"{self.cell_error[:160]}, so {outcome.message.split('(')[-1].split(' is not')[0]} "
                              "is not defined: fix that cell, run it, then run the check again.", exercise.hint_call)
        if step.changed == "comments":  # the same code: nothing to gain, so nothing lost
            outcome = Outcome(str(exercise), outcome.status, f"{outcome.message} {COMMENTS_IGNORED}", outcome.hint,
                              outcome.rule)
        elif step.changed:
            outcome = Outcome(str(exercise), "edited",
                              f"the check cell was {step.changed}, so the course's check ran in its place "
                              f"({outcome.status}: {outcome.message.rstrip('.')}). {EDITED_EARNS_NOTHING}", exercise.hint_call)
        elif step.moved:  # the course's order: what a moved check cell would change is not counted
            outcome = Outcome(str(exercise), outcome.status, f"{outcome.message} {MOVED_IGNORED}", outcome.hint,
                              outcome.rule)
        self.found[exercise] = outcome
        if outcome.status in ("timeout", "kernel died"):
            self.stopped = Outcome("*", outcome.status, outcome.message)
