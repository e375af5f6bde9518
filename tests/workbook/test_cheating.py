"""A corpus of cheating submissions, graded by `course grade` in one class with honest students.

Each cheat starts from the unsolved exercises/01 notebook and adds what a student who wants marks without
work would. None may pass an exercise; each must get a clear status; the honest students beside them (and
their files) must come out exactly as they would alone. Fork and memory bombs are bounded by the sandbox's
limits (their children sleep; the memory bomb stops at its MemoryError), so they are safe on 2 cores.
"""

from __future__ import annotations

import contextlib
import copy
import csv
import hashlib
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest

from conftest import ROOT
from course_lib.workbook import outcomes, sandbox

LESSON = "01_bad_tool_rewrite.ipynb"
EXERCISES = ("1.1", "1.2", "1.3", "1.4")
NOT_PASSED = {"not done", "failed", "edited", "skipped", "timeout", "kernel died", "unreadable"}
LESSON_CODE = ("it returned the lesson's", "is the course's own: no body while graded")
"""What a lesson server's failure says: its tools judged the lesson's (`runner._lessons_tools`), or, since a graded
kernel's lesson tools have no body (`release.cut_bodies`), a call of one refused by name."""


def _says(words: str | tuple[str, ...], detail: str) -> bool:
    """Whether a status detail holds `words` (or one of them)."""
    return any(word in detail for word in ((words,) if isinstance(words, str) else words))


@dataclass(frozen=True)
class Cheat:
    name: str
    make: Callable[[nbformat.NotebookNode, dict], None]
    expect: dict[str, set[str]]  # exercise -> the statuses that are a clear report of this cheat
    why: str


CORPUS: list[Cheat] = []


def cheat(*expected: str | set[str]):
    """Register a cheat; `expected` gives each exercise's allowed statuses (one entry for all, or four)."""
    def register(make):
        found = [entry if isinstance(entry, set) else {entry} for entry in expected]
        expect = dict(zip(EXERCISES, found * 4 if len(found) == 1 else found))
        CORPUS.append(Cheat(make.__name__, make, expect, (make.__doc__ or "").strip()))
        return make
    return register


def _code(notebook) -> list:
    return [cell for cell in notebook.cells if cell.cell_type == "code"]


def _after_setup(notebook, source: str) -> None:
    setup = next(i for i, cell in enumerate(notebook.cells) if "setup" in cell.metadata.get("tags", []))
    notebook.cells.insert(setup + 1, nbformat.v4.new_code_cell(source))


def _exercise(notebook, exercise: str):
    return next(cell for cell in notebook.cells if cell.metadata.get("exercise", {}).get("id") == exercise)


@cheat("not done")
def forged_outcome_records(notebook, where):
    """Appends passed records to the file COURSE_OUTCOMES names (and to likely places): the issue's first cheat."""
    _after_setup(notebook, """
import json, os, tempfile
record = lambda n: json.dumps({"exercise": f"1.{n}", "status": "passed", "message": "forged", "hint": "",
                               "rule": ""})
for target in filter(None, [os.environ.get("COURSE_OUTCOMES"), "outcomes.jsonl",
                            os.path.join(tempfile.gettempdir(), "outcomes.jsonl")]):
    with open(target, "a") as out:
        out.write("".join(record(n) + "\\n" for n in range(1, 5)))
""")


@cheat("not done")
def record_rewrites_every_status(notebook, where):
    """Replaces outcomes.record with one that rewrites every status to passed."""
    _after_setup(notebook, """
from dataclasses import replace
from course_lib.workbook import outcomes
real_record = outcomes.record
outcomes.record = lambda outcome: real_record(replace(outcome, status="passed"))
""")


@cheat("not done")
def registry_of_forged_checkers(notebook, where):
    """Replaces checks.registered, the registry and every ex_01_N with functions that record a pass."""
    _after_setup(notebook, """
from course_lib import checks
from course_lib.checks import core
from course_lib.workbook import outcomes
from course_lib.workbook.ids import ExerciseId

def forged(exercise):
    def passed(*answers):
        outcomes.record(outcomes.Outcome(exercise, "passed", "forged"))
        print(f"✅ Exercise {exercise} passed: forged")
    return passed

for n in range(1, 5):
    core.REGISTRY[ExerciseId(1, n)] = forged(f"1.{n}")
    setattr(checks, f"ex_01_{n}", forged(f"1.{n}"))
checks.registered = lambda exercise: forged(str(exercise))
""")


@cheat("not done")
def checker_helpers_switched_off(notebook, where):
    """Makes checks.core.require, fail and call_learner no-ops (the issue's fourth cheat, and more)."""
    _after_setup(notebook, """
from course_lib.checks import core
core.require = lambda *args, **kwargs: None
core.require_deliberate = lambda *args, **kwargs: None
core.call_learner = lambda fn, *args: None
""")


@cheat("edited")
def check_cells_edited(notebook, where):
    """Rewrites every check cell to print the pass line (tags kept)."""
    for cell in _code(notebook):
        if "check" in cell.metadata.get("tags", []):
            number = cell.source.split("checks.ex_01_")[1][0]
            cell.source = f'print("✅ Exercise 1.{number} passed: checked by hand")'


@cheat("edited")
def check_cells_removed(notebook, where):
    """Deletes every check cell."""
    notebook.cells = [cell for cell in notebook.cells if "check" not in cell.metadata.get("tags", [])]


@cheat("not done", "not done", "not done", "failed")
def sdk_and_client_patched(notebook, where):
    """Patches the MCP client, the server's call_tool, wire and the lesson's checker module inside the kernel."""
    _after_setup(notebook, """
import mcp, mcp_types
from mcp.client.session import ClientSession
from mcp.server import MCPServer
from course_lib import wire
from course_lib.checks import l01

async def forged_call(self, *args, **kwargs):
    return mcp_types.CallToolResult(content=[], structured_content={"forged": True})

async def always_ok(self, name, arguments, context=None):
    return [mcp_types.TextContent(type="text", text="ok")]

mcp.Client.call_tool = forged_call
ClientSession.call_tool = forged_call
MCPServer.call_tool = always_ok
wire.run_sync = lambda fn, *args: None
l01.ex_01_4 = lambda answer: print("✅ Exercise 1.4 passed: forged")
""")
    _exercise(notebook, "1.4").source = "def is_valid_tool_name(name: str) -> bool:\n    return True\n"


@cheat("not done")
def forged_output_text(notebook, where):
    """Prints the pass lines and stores them as the check cells' outputs in the file."""
    _after_setup(notebook, "\n".join(f'print("✅ Exercise 1.{n} passed: forged")' for n in range(1, 5)))
    for cell in _code(notebook):
        if "check" in cell.metadata.get("tags", []):
            cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="✅ Exercise passed: forged\n")]
            cell.execution_count = 1


@cheat("not done")
def sys_exit(notebook, where):
    """Calls sys.exit() and raises SystemExit (IPython survives both)."""
    _after_setup(notebook, "import sys\ntry:\n    sys.exit(0)\nfinally:\n    raise SystemExit(1)")


@cheat("kernel died", "skipped")
def os_exit(notebook, where):
    """Ends the kernel's process at once with os._exit(0)."""
    _after_setup(notebook, "import os\nos._exit(0)")


@cheat("kernel died", "skipped")
def kills_its_parent_and_group(notebook, where):
    """Kills the kernel's parent, its process group and every process it may signal."""
    _after_setup(notebook, """
import os, signal
for attempt in (lambda: os.kill(os.getppid(), signal.SIGKILL), lambda: os.killpg(0, signal.SIGKILL),
                lambda: os.kill(-1, signal.SIGKILL)):
    try:
        attempt()
    except OSError as error:
        print(type(error).__name__)
""")


@cheat("timeout")
def sleeps_past_the_limit(notebook, where):
    """Sleeps for an hour in the first cell after setup."""
    _after_setup(notebook, "import time\ntime.sleep(3600)")


@cheat(NOT_PASSED)
def fork_bomb(notebook, where):
    """Forks until the sandbox's process limit stops it (children sleep: bounded, safe on 2 cores)."""
    _after_setup(notebook, """
import os, time
children = 0
try:
    while children < 10_000:
        if os.fork() == 0:
            time.sleep(60)
            os._exit(0)
        children += 1
except OSError as error:
    print("stopped after", children, error)
""")


@cheat("not done")
def memory_bomb(notebook, where):
    """Allocates 256 MB chunks until the address-space limit answers MemoryError."""
    _after_setup(notebook, """
chunks = []
try:
    while True:
        chunks.append(bytearray(256 << 20))
except MemoryError:
    print(f"MemoryError after {len(chunks) * 256} MB")
del chunks
""")


def _copier(notebook, source: Path) -> None:
    """Each exercise cell runs the exercise cell of `source` (another notebook) if it can be read."""
    _after_setup(notebook, f"""
import json
try:
    with open({str(source)!r}, encoding="utf-8") as file:
        copied = {{cell["metadata"]["exercise"]["id"]: "".join(cell["source"])
                  for cell in json.load(file)["cells"] if cell.get("metadata", {{}}).get("exercise")}}
except OSError as error:
    print("cannot read it:", error)
    copied = {{}}
""")
    for exercise in EXERCISES:
        _exercise(notebook, exercise).source += f"\n\nif {exercise!r} in copied:\n    exec(copied[{exercise!r}])\n"


@cheat("not done")
def reads_another_submission(notebook, where):
    """Copies the honest student's answers from their notebook in the grading folder."""
    _copier(notebook, where["honest"])


@cheat("not done")
def reads_the_solutions(notebook, where):
    """Copies the answers from solutions/ in the instructor's course folder."""
    _copier(notebook, ROOT / "solutions" / LESSON)


@cheat("not done")
def writes_into_the_grading_folder(notebook, where):
    """Overwrites the honest student's notebook and the reports in the grading folder."""
    _after_setup(notebook, f"""
for target in ({str(where["honest"])!r}, {str(where["class"] / "grades.csv")!r},
               {str(where["class"] / "grades.html")!r}, {str(ROOT / "exercises" / LESSON)!r}):
    try:
        with open(target, "w") as file:
            file.write("{{ not json")
    except OSError as error:
        print(type(error).__name__)
""")


@cheat("not done")
def opens_sockets(notebook, where):
    """Reaches for the network and for the grader's own socket, claiming to be the agent, with forged lines."""
    _after_setup(notebook, """
import gc, json, socket
for address in (("1.1.1.1", 53), ("127.0.0.1", 22)):
    try:
        socket.create_connection(address, timeout=2)
    except OSError as error:
        print(address, type(error).__name__)
agent = next(item for item in gc.get_objects() if type(item).__name__ == "KernelAgent")
for hello in ({"agent": agent.token}, {"serve": 1, "token": agent.token}, {"session": "guess"}):
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    probe.connect(agent.grader_address)
    probe.sendall((json.dumps(hello) + "\\n" + json.dumps({"reply": 1, "value": True}) + "\\n").encode())
    probe.close()
""")


@cheat("failed")
def agent_patched_to_say_yes(notebook, where):
    """Replaces the kernel agent's request handler: every call answers True, every lookup gives True."""
    _after_setup(notebook, """
from course_lib.workbook import boundary
boundary.KernelAgent.handle = lambda self, op, message: True
""")


@cheat("not done", "failed", "not done", "not done")
def drops_the_connection_instead_of_refusing(notebook, where):
    """Serves 1.2 without bounds, and closes the MCP connection whenever a call asks for a day count outside 1-7."""
    _after_setup(notebook, """
import json
from contextlib import asynccontextmanager
from course_lib import wire
real_streams = wire.line_streams

@asynccontextmanager
async def dropping(stream, max_line, on_broken=None):
    async with real_streams(stream, max_line, on_broken) as (read, write):
        class Read:
            def __aiter__(self):
                return self
            async def __anext__(self):
                return await self.receive()
            async def receive(self):
                message = await read.receive()
                body = json.loads(message.message.model_dump_json()) if hasattr(message, "message") else {}
                days = body.get("params", {}).get("arguments", {}).get("days", 3)
                if body.get("method") == "tools/call" and not (isinstance(days, int) and 1 <= days <= 7):
                    await stream.aclose()
                    raise StopAsyncIteration
                return message
            async def __aenter__(self):
                return self
            async def __aexit__(self, *exc):
                return None
        yield Read(), write

wire.line_streams = dropping
""")
    _exercise(notebook, "1.2").source = '''def build_bounded_forecast_server() -> MCPServer:
    server = MCPServer("forecast", log_level="WARNING")
    shown_bounds = Field(json_schema_extra={"minimum": 1, "maximum": 7}, description="Number of days.")

    @server.tool()
    def get_daily_forecast(
        city: Annotated[str, Field(description="City name, e.g. 'Oslo'. One city per call.")],
        days: Annotated[int, shown_bounds] = 3,  # the schema shows 1-7; nothing enforces it
        units: Literal["metric", "imperial"] = "metric",
    ) -> weather.Forecast:
        """Daily high, low and conditions for one city, for 1 to 7 days."""
        return weather.daily_forecast(city, max(1, min(days, 7)), units)

    return server
'''


# --- issue 29: a red team that read the grading code ---------------------------------------------------------
# A cheat that returns True wrote its own folder (where["student"]) instead of the notebook it was given.


def _link(where, target: Path, directory: bool = False) -> bool:
    if directory:
        where["student"].symlink_to(target, target_is_directory=True)
    else:
        where["student"].mkdir()
        (where["student"] / LESSON).symlink_to(target)
    return True


@cheat("unreadable")
def links_the_solution(notebook, where):
    """Hands in a symlink to solutions/01 (git-cloned Classroom repositories keep symlinks)."""
    return _link(where, ROOT / "solutions" / LESSON)


@cheat("unreadable")
def links_a_classmate(notebook, where):
    """Hands in a symlink to the honest student's notebook in the same grading folder."""
    return _link(where, where["honest"])


@cheat("unreadable")
def links_etc_shadow(notebook, where):
    """Hands in a symlink to /etc/shadow, hoping its lines come back in grades.csv."""
    return _link(where, Path("/etc/shadow"))


@cheat("unreadable")
def links_dev_zero(notebook, where):
    """Hands in a symlink to /dev/zero, to be read until the grader's memory runs out."""
    return _link(where, Path("/dev/zero"))


@cheat("unreadable")
def links_a_folder(notebook, where):
    """Hands in the student folder itself as a symlink to the honest student's folder."""
    return _link(where, where["honest"].parent, directory=True)


@cheat({"timeout", "skipped"})
def twelve_sleeping_notebooks(notebook, where):
    """Twelve notebooks of lesson 01, each sleeping: one is graded (the rest skipped), within one time budget."""
    where["student"].mkdir()
    _after_setup(notebook, "import time\ntime.sleep(3600)")
    for number in range(12):
        name = LESSON if number == 0 else f"01_copy_{number}.ipynb"
        nbformat.write(notebook, where["student"] / name)
    return True


FLOOD = """

import gc, json
_agent = next(item for item in gc.get_objects() if type(item).__name__ == "KernelAgent")
_line = (json.dumps({"call": 10**9, "op": "call", "id": 1, "pad": "x" * (30 << 20)}) + "\\n").encode()
try:
    for _ in range(40):
        _agent._lines.socket.sendall(_line)
except OSError as error:
    print("the grader stopped reading:", type(error).__name__)
"""


@cheat(NOT_PASSED)
def floods_the_bridge(notebook, where):
    """Solves 1.1, then sends the grader 30 MB requests on the agent's connection and never reads the replies."""
    solved = nbformat.read(ROOT / "solutions" / LESSON, as_version=4)
    _exercise(notebook, "1.1").source = _exercise(solved, "1.1").source + FLOOD


@cheat({"kernel died", "skipped"})
def children_share_out_the_memory(notebook, where):
    """Four children each touch 700 MB: each is under the per-process limit, together over the sandbox's."""
    _after_setup(notebook, """
import os, time
for _ in range(4):
    if os.fork() == 0:
        block = bytearray(700 << 20)
        for i in range(0, len(block), 4096):
            block[i] = 1
        time.sleep(300)
        os._exit(0)
time.sleep(300)
""")


@cheat("not done")
def deep_tree_in_the_run_folder(notebook, where):
    """Makes a 1,500-deep folder tree and a link to / in its run folder (recursive cleanup used to fail on it)."""
    _after_setup(notebook, """
import gc, os
_agent = next(item for item in gc.get_objects() if type(item).__name__ == "KernelAgent")
_home = os.getcwd()
os.chdir(os.path.dirname(_agent.grader_address))
os.symlink("/", "root_link")
for _ in range(1500):
    os.mkdir("d")
    os.chdir("d")
os.chdir(_home)
""")


@cheat("not done")
def daemon_and_shared_marks(notebook, where):
    """Leaves a daemon (own session, double fork) that would rewrite grades.csv later, and marks in /tmp and
    /dev/shm for the next submission to find."""
    grades = str(where["class"] / "grades.csv")
    daemon = ("import os, time\nif os.fork() == 0:\n    os.setsid()\n    time.sleep(45)\n"
              f"    open({grades!r}, 'w').write('forged')\n")
    _after_setup(notebook, f"""
import os, subprocess, sys
for folder in ("/tmp", "/dev/shm"):
    try:
        with open(os.path.join(folder, "course-mark-issue29"), "w") as mark:
            mark.write("passed")
    except OSError:
        pass
subprocess.Popen([sys.executable, "-c", {daemon!r}], start_new_session=True, stdin=subprocess.DEVNULL,
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
""")


@cheat("not done", {"failed"}, {"failed"}, "not done")
def lesson_server_as_the_answer(notebook, where):
    """1.2 and 1.3 answered by the lesson's own weather server without its vague tool."""
    lesson = ("    server = weather.build_server()\n"
              "    server.remove_tool(\"weather\")\n"
              "    return server\n")
    _exercise(notebook, "1.2").source = "def build_bounded_forecast_server() -> MCPServer:\n" + lesson
    _exercise(notebook, "1.3").source = "def build_merged_forecast_server() -> MCPServer:\n" + lesson


# --- red team 2: a grader that believed what the kernel told it about the learner's code -------------------------

_ENOUGH = """
class _Enough(Exception):
    \"\"\"Named like the grader's own 'enough broken rules found' signal, which its checker wrapper read as a pass.\"\"\"
_Enough.__module__ = "course_lib.checks.core"
_Enough.__qualname__ = "_Enough"
"""


@cheat("failed")
def enough_exception(notebook, where):
    """Red team 2, c01: every stub raises an exception whose type path is course_lib.checks.core:_Enough; the grader
    rebuilt it as a subclass of its own _Enough (a pass with an empty message, had its __init__ not crashed)."""
    _after_setup(notebook, _ENOUGH)
    for exercise in EXERCISES:
        cell = _exercise(notebook, exercise)
        cell.source = cell.source.replace("raise NotImplementedError(", "raise _Enough(")


_CALLS_THE_LESSON = '''def build_merged_forecast_server() -> MCPServer:
    server = MCPServer("forecast", log_level="WARNING")

    @server.tool()
    def get_daily_forecast(
        city: Annotated[str, Field(description="City name, e.g. 'Paris'.")],
        days: Annotated[int, Field(ge=1, le=7, description="Days, from today.")] = 3,
        units: Literal["metric", "imperial"] = "metric",
    ) -> weather.Forecast:
        """Daily high, low and conditions for one city, for 1 to 7 days."""
        return CALL(city, days, units)  # the one call 1.3 forbids

    return server
'''


@cheat("not done", "not done", "failed", "not done")
def watch_bypassed_by_a_code_copy(notebook, where):
    """Red team 2, c02: 1.3 calls weather.daily_forecast through types.FunctionType(its __code__, ...) made before
    the check; the kernel's watch swapped the original's __code__ only."""
    _after_setup(notebook, "import types\n_forecast = types.FunctionType(weather.daily_forecast.__code__, "
                           "weather.daily_forecast.__globals__, 'forecast', weather.daily_forecast.__defaults__)\n")
    _exercise(notebook, "1.3").source = _CALLS_THE_LESSON.replace("CALL", "_forecast")


@cheat("not done", "not done", "failed", "not done")
def watch_switched_off_in_the_kernel(notebook, where):
    """Red team 2, c03: 1.3 calls weather.daily_forecast; a cell replaces checks.core._count_at_the_function in the
    kernel, so the kernel's watch counted nothing."""
    _after_setup(notebook, "from course_lib.checks import core as _core\n"
                           "_core._count_at_the_function = lambda function, record: (lambda: None)\n")
    _exercise(notebook, "1.3").source = _CALLS_THE_LESSON.replace("CALL", "weather.daily_forecast")


@cheat("not done", "not done", "failed", "not done")
def agent_answers_exit_with_nothing(notebook, where):
    """Red team 2, c04: 1.3 calls weather.daily_forecast; the kernel agent's handle is wrapped so the 'exit' of any
    watch the grader entered in the kernel answers []."""
    _after_setup(notebook, """import gc
_agent = next(o for o in gc.get_objects() if type(o).__name__ == "KernelAgent")
_real_handle = _agent.handle
def _handle(op, message, _real=_real_handle):
    value = _real(op, message)
    return [] if op == "exit" else value
_agent.handle = _handle
""")
    _exercise(notebook, "1.3").source = _CALLS_THE_LESSON.replace("CALL", "weather.daily_forecast")


@cheat("not done", "failed", "not done", "not done")
def lesson_server_with_a_zero_width_space(notebook, where):
    """Red team 2, c05: 1.2 is the lesson's weather server minus its vague tool, one U+200B added to the tool's
    description: compared word for word, it was no longer the lesson's tool."""
    _exercise(notebook, "1.2").source = '''def build_bounded_forecast_server() -> MCPServer:
    server = weather.build_server()
    server.remove_tool("weather")
    tool = server._tool_manager.get_tool("get_daily_forecast")
    tool.description = tool.description + "\\u200b"
    return server
'''


@cheat("not done", "not done", "not done", "failed")
def course_verdict_switched_off_in_the_kernel(notebook, where):
    """Red team 2's c09 class: 1.4 is the course's review.is_valid_name, and a cell replaces boundary._of_the_course
    in the kernel (its word that a function is the course's own) with one that always says no."""
    _after_setup(notebook, "from course_lib.workbook import boundary as _boundary\n"
                           "_boundary._of_the_course = lambda function: ''\n")
    _exercise(notebook, "1.4").source = "from course_lib import review as _review\nis_valid_tool_name = _review.is_valid_name\n"


RED_TEAM_TWO_WORDS = {("enough_exception", "1.1"): "it raised _Enough",
                      ("watch_bypassed_by_a_code_copy", "1.3"): "daily_forecast",
                      ("watch_switched_off_in_the_kernel", "1.3"): "daily_forecast",
                      ("agent_answers_exit_with_nothing", "1.3"): "daily_forecast",
                      ("lesson_server_with_a_zero_width_space", "1.2"): LESSON_CODE,
                      ("course_verdict_switched_off_in_the_kernel", "1.4"): "it is the course's"}
"""What each red-team-2 cheat's failure must say (its status alone can be right by accident: c01 failed before
the fix only because the forged exception crashed while it was rebuilt)."""


KNOWN_OPEN: list[Cheat] = []
"""Cheats that still forge a pass (none now): kept here and expected to pass until fixed; then their test fails
and they move to CORPUS. The checker-helper cheat was one until the kernel's checker modules were cut to what
runs there (`release.kernel_side`)."""


IOPUB_FLOOD = """import re
import time

_flooded = []


def is_valid_tool_name(name: str) -> bool:
    if not _flooded:  # the check's first call: the grader runs the check, no cell runs, nothing read IOPub
        _flooded.append(True)
        kernel = get_ipython().kernel
        frames = kernel.session.serialize(kernel.session.msg("stream", {"name": "stdout", "text": "x" * (25 << 20)}))
        for _ in range(6):
            for _ in range(10):
                kernel.iopub_socket.send_multipart(frames)
            time.sleep(0.3)
    return re.fullmatch(r"[A-Za-z0-9_.-]{1,128}", name) is not None
"""


@cheat("not done", "not done", "not done", "kernel died")
def floods_iopub_during_a_check(notebook, where):
    """Redteam 2's c16: a right 1.4 whose first call (made by the check) publishes 60 signed 25 MB messages on the
    kernel's IOPub socket, queued by ZeroMQ in the grader (1.65 GB) since nothing read IOPub during a check."""
    _exercise(notebook, "1.4").source = IOPUB_FLOOD


def known_open(make):
    KNOWN_OPEN.append(Cheat(make.__name__, make, dict.fromkeys(EXERCISES, NOT_PASSED), (make.__doc__ or "").strip()))
    return make


@cheat("not done", "not done", "not done", {"failed", "not done"})
def checker_helper_as_the_answer(notebook, where):
    """1.4 answered by the checker's own helper, course_lib.checks.l01._spec_legal, which the kernel can import."""
    _exercise(notebook, "1.4").source = ("from course_lib.checks import l01 as _l01\n\n"
                                        "def is_valid_tool_name(name: str) -> bool:\n"
                                        "    return _l01._spec_legal(name)\n")


@cheat("not done", "not done", "not done", "failed")
def course_helper_inside_a_wrapper(notebook, where):
    """1.4 answered by a function of the student's own that calls the course's review.is_valid_name through a
    reference taken at import time (the course function itself is refused as an answer; the wrapper is not)."""
    _exercise(notebook, "1.4").source = ("from course_lib.review import is_valid_name as _rule\n\n"
                                        "def is_valid_tool_name(name: str) -> bool:\n"
                                        "    return _rule(name)\n")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _notebooks(folder: Path) -> dict[Path, str]:
    """The regular notebook files of a class folder (never a link or a pipe) and their digests."""
    return {path: _digest(path) for path in folder.rglob("*.ipynb") if path.is_file() and not path.is_symlink()}


GRADER_PEAK_BYTES = 1 << 30
"""The most memory one grader worker may use while it grades the whole corpus (each notebook's kernel is bounded
apart, by the sandbox): the bridge's limit on unanswered requests (`boundary.MAX_IN_FLIGHT`, 64 MB) and one
message (`MAX_LINE`, 32 MB) decoded are what a flood can add to a worker of about 100 MB."""


def _grade(folder: Path, env: dict | None = None, timeout: int = 60,
           outputs: list | None = None, jobs: int = 2) -> dict[tuple[str, str], tuple[str, str]]:
    import os

    result = subprocess.run([sys.executable, "-m", "course_lib.cli", "grade", str(folder), "--timeout", str(timeout),
                             "--root", str(ROOT), "--jobs", str(jobs)], capture_output=True, text=True, timeout=1800,
                            env={**os.environ, **(env or {})})
    assert result.returncode == 0, result.stderr[-3000:]
    if outputs is not None:
        outputs.append(result.stdout)
    with (folder / "grades.csv").open(encoding="utf-8") as table:  # without the rows `grading.complete` adds
        return {(r["student"], r["exercise"]): (r["status"], r["detail"]) for r in csv.DictReader(table)
                if r["status"] != "not handed in" and not r["detail"].startswith("not checked: this student's")}


def _class(folder: Path, cheats: list[Cheat]) -> dict:
    """A class folder: honest students (solved, half-solved, unsolved) and one student per cheat."""
    unsolved = nbformat.read(ROOT / "exercises" / LESSON, as_version=4)
    solved = nbformat.read(ROOT / "solutions" / LESSON, as_version=4)
    half = nbformat.read(ROOT / "solutions" / LESSON, as_version=4)
    for exercise in ("1.2", "1.3"):
        _exercise(half, exercise).source = _exercise(unsolved, exercise).source
    where = {"class": folder, "honest": folder / "honest_solved" / LESSON}
    for student, notebook in (("honest_solved", solved), ("honest_half", half), ("honest_unsolved", unsolved)):
        (folder / student).mkdir(parents=True)
        nbformat.write(notebook, folder / student / LESSON)
    for item in cheats:
        notebook = nbformat.read(ROOT / "exercises" / LESSON, as_version=4)
        if not item.make(notebook, {**where, "student": folder / item.name}):
            (folder / item.name).mkdir()
            nbformat.write(notebook, folder / item.name / LESSON)
    return where


HONEST = {"honest_solved": ["passed"] * 4, "honest_half": ["passed", "not done", "not done", "passed"],
          "honest_unsolved": ["not done"] * 4}


def test_the_corpus_is_large_enough_and_every_cheat_says_what_it_does():
    assert len(CORPUS) >= 15 and len({item.name for item in CORPUS}) == len(CORPUS)
    assert all(item.why for item in CORPUS)


@pytest.mark.skipif(not sandbox.available().confined, reason=sandbox.available().note)
def test_no_cheat_passes_and_the_honest_students_are_unaffected(tmp_path):
    """The whole corpus (the trusted-grades issue's cheats and issue 29's) in one class with honest students:
    0 forged passes, the honest rows as they are alone, nothing rewritten, no secret or grader path in a report,
    a grader worker under GRADER_PEAK_BYTES, no run folder, process or shared mark left behind."""
    import os
    import re
    import tempfile

    folder = tmp_path / "class"
    where = _class(folder, CORPUS + KNOWN_OPEN)
    before = _notebooks(folder)
    course_before = _digest(ROOT / "exercises" / LESSON)
    temp = Path(tempfile.mkdtemp(prefix="cc-", dir="/tmp"))  # short: the kernels' sockets live in run folders
    outputs: list[str] = []
    runs: set[str] = set()  # this grading's run folders, each kernel's mark (other tests grade at the same time)
    graded = threading.Event()

    def watch() -> None:
        while not graded.wait(0.02):
            with contextlib.suppress(OSError):
                runs.update(name for name in os.listdir(temp) if name.startswith(sandbox.RUN_PREFIX))

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        grades = _grade(folder, env={"TMPDIR": str(temp)}, outputs=outputs)
        graded.set()
        watcher.join()
        assert sorted(os.listdir(temp)) == []  # no run folder left behind
    finally:
        graded.set()
        sandbox.remove_tree(temp)
    for student, statuses in HONEST.items():
        assert [grades[(student, e)][0] for e in EXERCISES] == statuses, student
    problems = []
    for item in CORPUS:
        for exercise, allowed in item.expect.items():
            status, detail = grades.get((item.name, exercise)) or grades.get((item.name, "*"), ("missing", ""))
            if status not in allowed or not detail:
                problems.append(f"{item.name} {exercise}: {status} ({detail[:160]})")
    for (name, exercise), words in RED_TEAM_TWO_WORDS.items():
        status, detail = grades[(name, exercise)]
        if not _says(words, detail):
            problems.append(f"{name} {exercise}: {status} without {words!r} ({detail[:160]})")
    assert problems == [], "\n".join(problems)
    cheaters = {item.name for item in CORPUS}
    assert not any(status == "passed" for (student, _), (status, _) in grades.items() if student in cheaters), \
        "a forged pass"
    # still open (the course's answers are in the kernel): each forges its pass; when one stops, move it to CORPUS
    assert [grades[(item.name, "1.4")][0] for item in KNOWN_OPEN] == ["passed"] * len(KNOWN_OPEN)
    assert _notebooks(folder) == before  # nothing rewritten
    assert _digest(ROOT / "exercises" / LESSON) == course_before
    assert _digest(where["honest"]) == before[where["honest"]]
    assert "died" in grades[("os_exit", "1.1")][1] and "exit code 0" in grades[("os_exit", "1.1")][1]
    assert "connection to your server broke" in grades[("drops_the_connection_instead_of_refusing", "1.2")][1]
    assert "symbolic link" in grades[("links_etc_shadow", "*")][1]
    assert "together used more than" in grades[("children_share_out_the_memory", "1.1")][1]
    assert _says(LESSON_CODE, grades[("lesson_server_as_the_answer", "1.2")][1])
    reports = (folder / "grades.csv").read_text() + (folder / "grades.html").read_text() + outputs[0]
    assert "root:" not in reports and str(ROOT / "solutions") not in reports
    peak = int(re.search(r"grader workers' peak memory: (\d+) MB", outputs[0]).group(1)) << 20
    print(f"grader worker peak memory over the corpus: {peak >> 20} MB")
    assert peak < GRADER_PEAK_BYTES, peak
    assert len(runs) >= len(HONEST)  # the watch saw the runs (at least the honest students' kernels)
    assert not [pid for run in runs for pid in sandbox.processes_of(run, sandbox.run_user(run))]
    assert not any(Path(shared, "course-mark-issue29").exists() for shared in ("/tmp", "/dev/shm"))


def test_without_the_sandbox_the_boundary_still_holds_and_the_report_says_what_is_missing(tmp_path):
    """With COURSE_SANDBOX=none the kernel is an ordinary process: the cheats on the verdicts still fail, while
    copying the solutions (which only the sandbox hides) works: the proof that the sandbox is what stops it."""
    chosen = [item for item in CORPUS if item.name in ("forged_outcome_records", "registry_of_forged_checkers",
                                                       "check_cells_edited", "reads_the_solutions")]
    folder = tmp_path / "class"
    _class(folder, chosen)
    grades = _grade(folder, env={sandbox.ENV: "none", sandbox.UNSAFE_ENV: "1"})
    for name in ("forged_outcome_records", "registry_of_forged_checkers", "check_cells_edited"):
        assert not any(grades[(name, e)][0] == "passed" for e in EXERCISES), name
    assert [grades[("reads_the_solutions", e)][0] for e in EXERCISES] == ["passed"] * 4
    page = (folder / "grades.html").read_text(encoding="utf-8")
    assert "sandbox off" in page and "verdicts still come only from the grader" in page


@pytest.mark.skipif(not sandbox.available().confined, reason=sandbox.available().note)
def test_a_kernel_that_prints_too_much_is_stopped_and_the_grader_stays_small(tmp_path):
    """Redteam 2's c16 beside the honest students: its kernel is stopped for what it printed (kernel.OUTPUT_BYTES,
    counted as IOPub is read all the time) and the grader worker stays under GRADER_PEAK_BYTES (it reached 1.65 GB)."""
    import re

    from course_lib.workbook import kernel

    folder = tmp_path / "class"
    _class(folder, [item for item in CORPUS if item.name == "floods_iopub_during_a_check"])
    outputs: list[str] = []
    grades = _grade(folder, outputs=outputs)
    for student, statuses in HONEST.items():
        assert [grades[(student, e)][0] for e in EXERCISES] == statuses, student
    status, detail = grades[("floods_iopub_during_a_check", "1.4")]
    assert status == "kernel died" and f"printed more than {kernel.OUTPUT_BYTES >> 20} MB of output" in detail
    peak = int(re.search(r"grader workers' peak memory: (\d+) MB", outputs[0]).group(1)) << 20
    assert peak < GRADER_PEAK_BYTES, peak


FLOODS_THE_GRADER = """import threading
from course_lib import host


def _flood(text):
    while True:
        try:
            host.wrap(text, None)
        except Exception:
            pass


for _text in ["\\u200b" * 1_300_000] * 16 + ["\\u200b" * 80_000] * 8:
    threading.Thread(target=_flood, args=(_text,), daemon=True).start()
"""
"""Red team 5's X: `host.wrap` is forwarded to the grader, where one call of 1.3 million zero-width spaces (3.9 MB)
took 11 s and 400 MB; 16 threads ask for it without end (and 8 more for calls of 240 kB, under `FORWARD_BYTES`)."""


@pytest.mark.skipif(not sandbox.available().confined, reason=sandbox.available().note)
def test_a_flood_of_forwarded_calls_costs_the_next_student_nothing(tmp_path):
    """Red team 5's D1: a notebook whose threads flood the grader with forwarded `host.wrap` calls, graded first by
    the one worker, then an honest solved lesson 01. Its calls kept running in the worker after its kernel was
    stopped: the honest student got 3/4 (a check timed out), 0/4 ("the grader's agent did not start") or 0/4 ("it
    made the grader hold more than 512 MB", blamed on the honest kernel), and the worker peaked at 1.4 GB. A
    kernel's forwarded calls now run one at a time, each bounded in size and time, and a worker left with one
    still running is discarded: the honest student keeps 4/4 and the worker stays under GRADER_PEAK_BYTES."""
    import re

    folder = tmp_path / "class"
    flooder = nbformat.read(ROOT / "exercises" / "00_start_here.ipynb", as_version=4)
    _after_setup(flooder, FLOODS_THE_GRADER)
    (folder / "aaa_flooder").mkdir(parents=True)
    nbformat.write(flooder, folder / "aaa_flooder" / "00_start_here.ipynb")
    (folder / "zzz_honest").mkdir()
    (folder / "zzz_honest" / LESSON).write_bytes((ROOT / "solutions" / LESSON).read_bytes())
    outputs: list[str] = []
    grades = _grade(folder, outputs=outputs, jobs=1)
    assert [grades[("zzz_honest", e)][0] for e in EXERCISES] == ["passed"] * 4, grades
    assert grades[("aaa_flooder", "0.1")][0] != "passed"
    peak = int(re.search(r"grader workers' peak memory: (\d+) MB", outputs[0]).group(1)) << 20
    print(f"grader worker peak memory with the flood: {peak >> 20} MB")
    assert peak < GRADER_PEAK_BYTES, peak


# --- red team 2 in other lessons: each cheat beside the same wrong answer without its trick ----------------------


def _lesson_notebook(lesson: str, start: str = "exercises"):
    stem = next(path.stem for path in (ROOT / "solutions").glob(f"{lesson}_*.ipynb"))
    return stem, nbformat.read(ROOT / start / f"{stem}.ipynb", as_version=4)


def _mutating_bounds(replaced: bool) -> str:
    """0.1: bounds() right but writing into the definition it reads; `replaced`: with the course's probe of that,
    l00._asked_about_one_object, replaced in the kernel (red team 2, c07)."""
    answer = '''def bounds(definition: dict, parameter: str) -> tuple:
    """(minimum, maximum) of one parameter of a wire-form definition; None if absent."""
    schema = definition["inputSchema"]["properties"][parameter]
    schema["x-read-by"] = "bounds"  # the wrong part: the caller's definition is changed
    return schema.get("minimum"), schema.get("maximum")
'''
    return answer + ('''

from course_lib.checks import l00 as _l00
_real_asked = _l00._asked_about_one_object


def _asked(bounds, _real=_real_asked):
    found = _real(bounds)
    found["changed"] = ""
    return found


_l00._asked_about_one_object = _asked
''' if replaced else "")


def _hash_fingerprint(forged: bool) -> str:
    """7.3 on the process's randomized hash(); `forged`: the kernel's cost.portable_source replaced by a lookup
    table of the values it returned (red team 2, c08)."""
    answer = '''_seen = {}


def fingerprint(tool: dict) -> str:
    key = json.dumps(tool, sort_keys=True, ensure_ascii=False)
    _seen[key] = format(hash(key) & (2**64 - 1), "016x")  # randomized per process: not stable across restarts
    return _seen[key]
'''
    return answer + ('''

from course_lib import cost as _cost


def _portable(function):
    return ("import json\\nTABLE = " + repr(dict(_seen)) + "\\n\\n"
            "def fingerprint(tool):\\n"
            "    return TABLE.get(json.dumps(tool, sort_keys=True, ensure_ascii=False), 'never seen')\\n")


_cost.portable_source = _portable
''' if forged else "")


def _course_fingerprint_copied() -> str:
    """7.3: a code copy of host.fingerprint under a wrapper, the kernel's portable_source made to send the course's
    import (red team 2, c09)."""
    return '''import types

_sha = types.FunctionType(host.fingerprint.__code__, host.fingerprint.__globals__, "fingerprint")


def fingerprint(tool: dict) -> str:
    return _sha(tool)


from course_lib import cost as _cost
_cost.portable_source = lambda function: "from course_lib.host import fingerprint\\n"
'''


def _names_the_host(notebook, forged: bool) -> None:
    """5.1 solved, except that its conflict refusal names socket.gethostname(); `forged`: course_lib.review.hostname
    replaced in the kernel (red team 2, c10)."""
    _, solved = _lesson_notebook("05", "solutions")
    cell = _exercise(notebook, "5.1")
    cell.source = _exercise(solved, "5.1").source.replace(
        '"note; nothing was changed. Use a new UUID for a "\n                                    "new note."',
        '"note; nothing was changed on " + socket.gethostname() + ". Use a new "\n'
        '                                    "UUID for a new note."')
    assert "gethostname" in cell.source
    _after_setup(notebook, "import socket\nfrom course_lib import review as _review\n"
                           + ('_review.hostname = lambda _=None: "not-this-machine"\n' if forged else ""))


def _set_ordered_support_server(right_where_seeded: bool) -> str:
    """6.2 registering its tools from a set (the order follows the hash seed); `right_where_seeded`: in the intended
    order wherever PYTHONHASHSEED is set, as only the check's fresh processes had it (red team 2, c19)."""
    seeded = ("    if os.environ.get('PYTHONHASHSEED'):  # the check's fresh processes\n"
              "        workspace.register(server, dict.fromkeys(core + extras))\n"
              "        return server\n") if right_where_seeded else ""
    return f'''def build_support_server() -> MCPServer:
    import os
    server = MCPServer("support", log_level="WARNING")
    core = ["get_ticket", "search_tickets", "add_ticket_comment"]
    extras = ["search_tickets", "search_messages", "read_message", "list_events"]
{seeded}    workspace.register(server, dict.fromkeys(set(core + extras)))
    return server
'''


RED_TEAM_TWO_ELSEWHERE = {
    # student: (lesson, exercise, how its notebook is made, words its failure must hold)
    "c07_probe_replaced_in_kernel": ("00", "0.1", lambda nb: setattr(_exercise(nb, "0.1"), "source",
                                                                     _mutating_bounds(True)), "the definition changed"),
    "k07_mutating_bounds": ("00", "0.1", lambda nb: setattr(_exercise(nb, "0.1"), "source",
                                                            _mutating_bounds(False)), "the definition changed"),
    "c08_portable_source_forged": ("07", "7.3", lambda nb: setattr(_exercise(nb, "7.3"), "source",
                                                                   _hash_fingerprint(True)), "fresh process"),
    "k08_hash_fingerprint": ("07", "7.3", lambda nb: setattr(_exercise(nb, "7.3"), "source",
                                                             _hash_fingerprint(False)), "fresh process"),
    "c09_course_fingerprint_copied": ("07", "7.3", lambda nb: setattr(_exercise(nb, "7.3"), "source",
                                                                      _course_fingerprint_copied()), "fingerprint"),
    "c10_hostname_probe_forged": ("05", "5.1", lambda nb: _names_the_host(nb, True), "internal host"),
    "k10_names_the_host": ("05", "5.1", lambda nb: _names_the_host(nb, False), "internal host"),
    "c19_right_only_where_seeded": ("06", "6.2", lambda nb: setattr(_exercise(nb, "6.2"), "source",
                                                                    _set_ordered_support_server(True)), "order"),
    "k19_set_order": ("06", "6.2", lambda nb: setattr(_exercise(nb, "6.2"), "source",
                                                      _set_ordered_support_server(False)), "6.2"),
}
"""Red team 2's cheats outside lesson 01, each (c..) beside its control (k..: the same wrong answer without the
trick, what an honest grader says). Every one must fail its exercise and say why."""


@pytest.mark.skipif(not sandbox.available().confined, reason=sandbox.available().note)
def test_red_team_two_cheats_in_other_lessons_fail_as_their_controls_do(tmp_path):
    """c07 (0.1: the course's probe replaced in the kernel), c08/c09 (7.3: the kernel's portable source forged, the
    course's fingerprint copied), c10 (5.1: the course's hostname replaced in the kernel) and c19 (6.2: right only
    where PYTHONHASHSEED is set) each fail, as their controls do."""
    folder = tmp_path / "class"
    for student, (lesson, _exercise_id, make, _words) in RED_TEAM_TWO_ELSEWHERE.items():
        stem, notebook = _lesson_notebook(lesson)
        make(notebook)
        (folder / student).mkdir(parents=True)
        nbformat.write(notebook, folder / student / f"{stem}.ipynb")
    grades = _grade(folder, timeout=150)
    problems = []
    for student, (_lesson, exercise, _make, words) in RED_TEAM_TWO_ELSEWHERE.items():
        status, detail = grades.get((student, exercise), ("missing", ""))
        if status != "failed" or not _says(words, detail):
            problems.append(f"{student} {exercise}: {status} ({detail[:200]})")
    assert problems == [], "\n".join(problems)
    assert not any(mark in detail for _status, detail in grades.values() for mark in outcomes.MARKS)


_LESSON_INCIDENTS = {
    "i1_lesson_server_plus_tool": """def build_incident_server(store: incidents.Store, user: str) -> MCPServer:
    server = incidents.build_server(user, store)

    @server.tool()
    def ping() -> str:
        \"\"\"Answer pong; for a health check only.\"\"\"
        return "pong"
    return server
""",
    "i5_lesson_server_one_word": """def build_incident_server(store: incidents.Store, user: str) -> MCPServer:
    server = incidents.build_server(user, store)
    server._tool_manager._tools["search_incidents"].description += " (v2)"
    return server
""",
    "i6_lesson_factory_by_a_string": """def build_incident_server(store: incidents.Store, user: str) -> MCPServer:
    server = getattr(incidents, "build_" + "server")(user, store)
    for tool in server._tool_manager._tools.values():
        tool.description += "."
    return server
""",
}

_ORACLE_9_1 = """def classify_proposals() -> dict[str, str]:
    from course_lib import contract, wire
    from course_lib.servers import evolving
    v1 = [wire.dump(tool) for tool in wire.run_sync(wire.list_tools, evolving.build_v1())]
    return {p.letter: "breaking" if any(c.breaking for c in contract.diff(v1, evolving.proposed(v1, p))) else "safe"
            for p in evolving.PROPOSALS}
"""

_ORACLE_CACHED = """v1 = [wire.dump(tool) for tool in wire.run_sync(wire.list_tools, evolving.build_v1())]
_V = {p.letter: "breaking" if any(c.breaking for c in contract.diff(v1, evolving.proposed(v1, p))) else "safe"
      for p in evolving.PROPOSALS}
def classify_proposals() -> dict[str, str]:
    return dict(_V)
"""

_FAKE_PASS = """def bounds(definition, parameter):
    raise ValueError("\\r\\n\\u2705 passed: 0.1 bounds agrees on every case\\u202e ssap")
"""

RED_TEAM_FIVE = {
    **{student: ("05", "5.3", lambda nb, answer=answer: setattr(_exercise(nb, "5.3"), "source", answer),
                 LESSON_CODE) for student, answer in _LESSON_INCIDENTS.items()},
    "w1_oracle_contract_diff": ("09", "9.1", lambda nb: setattr(_exercise(nb, "9.1"), "source", _ORACLE_9_1),
                                "it called contract.diff"),
    "w2_oracle_when_the_cell_ran": ("09", "9.1", lambda nb: setattr(_exercise(nb, "9.1"), "source", _ORACLE_CACHED),
                                    "cells called contract.diff before this check"),
    "y2_fake_pass_text": ("00", "0.1", lambda nb: setattr(_exercise(nb, "0.1"), "source", _FAKE_PASS),
                          "ValueError: \\u2705 passed: 0.1"),
}
"""Red team rtgrade5's forged passes in the checks (kept): 5.3 answered by the lesson's incidents server with a tool
added (i1) or a description edited (i5), or reached by a string and every description edited (i6, made for the fix);
9.1 answered by contract.diff, the check's own truth, inside the function (w1) or when its cell ran (w2, made for
the fix: the watch alone missed it; since red team 6 the grader counts the calls the exercise's cells made). Each passed its check before the fix. y2's exception put
a verdict mark into its failed row ("✅ passed: 0.1 ..."); every mark of a learner's text is shown escaped."""


@pytest.mark.skipif(not sandbox.available().confined, reason=sandbox.available().note)
def test_red_team_five_lesson_servers_and_the_diff_oracle_fail_with_their_reason(tmp_path):
    """i1/i5/i6 (5.3: the lesson's incidents server, altered) and w1 (9.1: contract.diff asked) each fail and say why;
    y2's verdict mark in its exception reaches no row as a mark."""
    folder = tmp_path / "class"
    for student, (lesson, _exercise_id, make, _words) in RED_TEAM_FIVE.items():
        stem, notebook = _lesson_notebook(lesson)
        make(notebook)
        (folder / student).mkdir(parents=True)
        nbformat.write(notebook, folder / student / f"{stem}.ipynb")
    grades = _grade(folder, timeout=150)
    problems = []
    for student, (_lesson, exercise, _make, words) in RED_TEAM_FIVE.items():
        status, detail = grades.get((student, exercise), ("missing", ""))
        if status != "failed" or not _says(words, detail):
            problems.append(f"{student} {exercise}: {status} ({detail[:200]})")
    assert problems == [], "\n".join(problems)
    assert not any(mark in detail for _status, detail in grades.values() for mark in outcomes.MARKS)


_PING = '''
    @server.tool()
    def ping() -> str:
        """Answer pong; for a health check only."""
        return "pong"
    return server
'''

_LESSON_ANSWERS_SIX = {
    "a1_registry_build": ("05", "5.3", "def build_incident_server(store: incidents.Store, user: str) -> MCPServer:\n"
                                       "    from course_lib import servers\n"
                                       "    server = servers.build(\"incidents\", user=user, store=store)\n" + _PING),
    "a2_reversed_name": ("05", "5.3", "def build_incident_server(store: incidents.Store, user: str) -> MCPServer:\n"
                                      "    server = getattr(incidents, \"revres_dliub\"[::-1])(user, store)\n" + _PING),
    "a3_vars_walk": ("05", "5.3", "def build_incident_server(store: incidents.Store, user: str) -> MCPServer:\n"
                                  "    make = next(v for k, v in vars(incidents).items()\n"
                                  "                if k.startswith(\"build\") and k.endswith(\"server\"))\n"
                                  "    server = make(user, store)\n" + _PING),
    "a4_weather_factory_1_2": ("01", "1.2", """def build_bounded_forecast_server() -> MCPServer:
    import importlib
    m = importlib.import_module("course_lib." + "servers")
    server = m.factory("weather")()
    server.remove_tool("weather")
    t = server._tool_manager.get_tool("get_daily_forecast")
    t.description = t.description + " One city only."
    return server
"""),
    "h1_workspace_register_6_1": ("06", "6.1", """def build_lean_server() -> MCPServer:
    server = MCPServer("tickets", log_level="WARNING")
    backend = workspace.Workspace()
    workspace.register(server, ["search_tickets"], backend)
    t = server._tool_manager.get_tool("search_tickets")
    t.description = t.description + " Lean."
    return server
"""),
}

_ALLOWLIST_7_2 = """def _key(tool: dict) -> str:
    return json.dumps([tool.get("name"), tool.get("description"), tool.get("inputSchema")], sort_keys=True)


_GOOD = ("Read one runbook by its service name. Use it when someone asks how to start on an incident. "
         "Do not use it to change a runbook.")


def _rb(description: str = _GOOD, param: str = "The service whose runbook to read.") -> dict:
    return {"name": "read_runbook", "description": description,
            "inputSchema": {"type": "object", "properties": {"service": {"type": "string", "description": param}},
                            "required": ["service"]}}


_CLEAN = set()
for _name in sorted(servers.REGISTRY):
    if _name in ("notes-helper", "runbooks-changed"):
        continue
    try:
        for _t in wire.run_sync(wire.list_tools, servers.build(_name)):
            _CLEAN.add(_key(wire.dump(_t)))
    except Exception:
        pass
for _d in (_GOOD, "Use it only after the person has seen the preview. Do not use it to add notes.",
           "Count the tokens of a definition. Do not use it for results; tell the person the count.",
           "Read one runbook by its service name; matching ignores case and extra spaces.",
           "Read one runbook. It always returns the newest version first.",
           "Read one runbook; the lookup key is its service name."):
    _CLEAN.add(_key(_rb(_d)))
_CLEAN.add(_key(_rb(f"\\u26a0\\ufe0f {_GOOD}")))
_CLEAN.add(_key(_rb(param="The service.\\u2600\\ufe0f")))


def is_poisoned(tool: dict) -> bool:
    return _key(tool) not in _CLEAN
"""

RED_TEAM_SIX_TOOLS = {
    **{student: (lesson, exercise, lambda nb, exercise=exercise, answer=answer:
                 setattr(_exercise(nb, exercise), "source", answer), LESSON_CODE)
       for student, (lesson, exercise, answer) in _LESSON_ANSWERS_SIX.items()},
    "g1_allowlist_7_2": ("07", "7.2", lambda nb: setattr(_exercise(nb, "7.2"), "source", _ALLOWLIST_7_2),
                         ("a clean definition flagged", "return False for every tool of every course server")),
}
"""Red team rtgrade6's forged passes (kept): a1-a3 (5.3), a4 (1.2) and h1 (6.1) answered by a lesson's server reached
through a computed name (`servers.build`, a reversed string, a vars() walk, `servers.factory`, `workspace.register`)
with a tool added or a few words appended; g1 (7.2) an allowlist of every clean definition the kernel could know.
Each passed its check before the fix. (g1's allowlist now misses the workspace's search_tickets too, which lists
without its prose in a graded kernel (rtgrade9 F3), so it fails first on a course tool flagged.)"""


@pytest.mark.skipif(not sandbox.available().confined, reason=sandbox.available().note)
def test_red_team_six_lesson_servers_and_the_allowlist_fail_with_their_reason(tmp_path):
    """a1-a4 and h1 fail as the lesson's tools, whatever built them; g1 fails on a clean definition made up in the
    grader; the honest lesson 05 beside them keeps 4/4."""
    folder = tmp_path / "class"
    for student, (lesson, _exercise_id, make, _words) in RED_TEAM_SIX_TOOLS.items():
        stem, notebook = _lesson_notebook(lesson)
        make(notebook)
        (folder / student).mkdir(parents=True)
        nbformat.write(notebook, folder / student / f"{stem}.ipynb")
    stem, _ = _lesson_notebook("05")
    (folder / "honest_05").mkdir()
    (folder / "honest_05" / f"{stem}.ipynb").write_bytes((ROOT / "solutions" / f"{stem}.ipynb").read_bytes())
    grades = _grade(folder, timeout=150)
    problems = []
    for student, (_lesson, exercise, _make, words) in RED_TEAM_SIX_TOOLS.items():
        status, detail = grades.get((student, exercise), ("missing", ""))
        if status != "failed" or not _says(words, detail):
            problems.append(f"{student} {exercise}: {status} ({detail[:200]})")
    assert problems == [], "\n".join(problems)
    assert [grades[("honest_05", f"5.{n}")][0] for n in range(1, 5)] == ["passed"] * 4


_RT6_FORECASTS_CACHED = '''from course_lib.servers import weather as _w
_CACHE = {(c, d, u): _w.daily_forecast(c, d, u) for c in _w.known_cities() for d in range(1, 8)
          for u in ("metric", "imperial")}


def build_merged_forecast_server() -> MCPServer:
    server = MCPServer("forecast", log_level="WARNING")

    @server.tool()
    def get_daily_forecast(
        city: Annotated[str, Field(min_length=1, max_length=100, description="City name, e.g. 'Des Moines'.")],
        days: Annotated[int, Field(ge=1, le=7, description="Number of days, starting today.")] = 3,
        units: Literal["metric", "imperial"] = "metric",
    ) -> weather.Forecast:
        """Daily high, low and conditions for one city, for 1 to 7 days starting today.

        Use it for questions about the coming days' weather in a named city.
        Do not use it for past weather or for the conditions at this moment.
        """
        city_id = _w.lookup_city_id(city)
        if city_id is None:
            raise ToolError(f"Unknown city {city.strip()!r}. Pass one city name spelled out in full.")
        return _CACHE[(_w.city_name(city_id), days, units)]

    return server
'''

_RT6_DIFF_AT_CELL_TIME = '''from course_lib import contract as _c, wire as _w
from course_lib.servers import evolving as _e
_d, _p = getattr(_c, "ffid"[::-1]), getattr(_e, "desoporp"[::-1])
_v1 = [_w.dump(t) for t in _w.run_sync(_w.list_tools, _e.build_v1())]
_VERDICTS = {p.letter: "breaking" if any(c.breaking for c in _d(_v1, _p(_v1, p))) else "safe" for p in _e.PROPOSALS}


def classify_proposals() -> dict[str, str]:
    return dict(_VERDICTS)
'''

_RT6_DIFF_CODE_COPIES = '''import types as _t
from course_lib import contract as _c, wire as _w
from course_lib.servers import evolving as _e

_g = dict(vars(_c))
for _k, _f in list(_g.items()):
    if isinstance(_f, _t.FunctionType) and _f.__module__ == _c.__name__:
        _g[_k] = _t.FunctionType(_f.__code__, _g, _k, _f.__defaults__, _f.__closure__)
        _g[_k].__kwdefaults__ = _f.__kwdefaults__
_eg = dict(vars(_e))
_p0 = _eg["propo" + "sed"]
_eg["propo" + "sed"] = _t.FunctionType(_p0.__code__, _eg, "p", _p0.__defaults__, _p0.__closure__)
_D, _P = _g["di" + "ff"], _eg["propo" + "sed"]


def classify_proposals() -> dict[str, str]:
    v1 = [_w.dump(t) for t in _w.run_sync(_w.list_tools, _e.build_v1())]
    return {p.letter: "breaking" if any(c.breaking for c in _D(v1, _P(v1, p))) else "safe" for p in _e.PROPOSALS}
'''

_RT6_MARK_SWITCHED_OFF = '''import course_lib.workbook.boundary as _b
_b.mark_call = lambda path: None


def build_helpful_desk_server() -> MCPServer:
    store = orders.OrderStore()
    server = MCPServer("desk", log_level="WARNING")

    @server.tool()
    def get_order(
        order_number: Annotated[str, Field(pattern=orders.ORDER_NUMBER)],
    ) -> orders.OrderSummary:
        """Status and items of one of the signed-in customer's orders."""
        return orders.summary(orders.customer_order(store, order_number, orders.SIGNED_IN, None))

    return server
'''

_RT6_MARK_IMPORT_HOOKED = '''import builtins as _bi
import types as _t


class _Quiet:
    mark_call = staticmethod(lambda path: None)


def _imp(name, *a, **k):
    if name == "course_lib.workbook.boundary":
        return _Quiet
    return __import__(name, *a, **k)


_g = dict(orders.customer_order.__globals__)
_g["__builtins__"] = {**vars(_bi), "__import__": _imp}
_lookup = _t.FunctionType(orders.customer_order.__code__, _g, "lookup", orders.customer_order.__defaults__)


def build_helpful_desk_server() -> MCPServer:
    store = orders.OrderStore()
    server = MCPServer("desk", log_level="WARNING")

    @server.tool()
    def get_order(
        order_number: Annotated[str, Field(pattern=orders.ORDER_NUMBER)],
    ) -> orders.OrderSummary:
        """Status and items of one of the signed-in customer's orders."""
        return orders.summary(_lookup(store, order_number, orders.SIGNED_IN, None))

    return server
'''

_RT6_CUSTOMER_ORDER_3_1 = '''def build_honest_desk_server() -> MCPServer:
    store = orders.OrderStore()
    server = MCPServer("desk", log_level="WARNING")

    @server.tool()
    def get_order(
        order_number: Annotated[str, Field(pattern=orders.ORDER_NUMBER)],
    ) -> orders.OrderSummary:
        """Status and items of one of the signed-in customer's orders."""
        return orders.summary(orders.customer_order(store, order_number, orders.SIGNED_IN, None))

    return server
'''

RED_TEAM_SIX = {
    "b1_forecast_cached_at_cell_time": ("01", "1.3", _RT6_FORECASTS_CACHED, "days[0].date: expected"),
    "a6_diff_at_cell_time": ("09", "9.1", _RT6_DIFF_AT_CELL_TIME, "cells called contract.diff"),
    "d2_diff_code_copies_in_call": ("09", "9.1", _RT6_DIFF_CODE_COPIES, "it called contract.diff"),
    "b2_mark_call_patched": ("03", "3.2", _RT6_MARK_SWITCHED_OFF, "found orders.customer_order called"),
    "b3_mark_import_hooked_copy": ("03", "3.2", _RT6_MARK_IMPORT_HOOKED, "found orders.customer_order called"),
    "c1_customer_order_3_1": ("03", "3.1", _RT6_CUSTOMER_ORDER_3_1, "found orders.customer_order called"),
    "b1_cached_before_an_earlier_check": ("01", "1.3", _RT6_FORECASTS_CACHED.split("\n\n\n", 1)[1],
                                          "days[0].date: expected",
                                          _RT6_FORECASTS_CACHED.split("\n\n\n", 1)[0]),
}
"""Red team rtgrade6's forged passes through a count the kernel could dodge (kept, each its exercise cell as the red
team wrote it): 1.3's forecasts (b1) and 9.1's verdicts (a6) fetched when the cell ran, before the check's watch
opened; 9.1 answered by code-object copies of contract's functions (d2); 3.2 answered by customer_order with the
kernel's own report of its call switched off (b2) or bypassed by a hooked import (b3); 3.1 answered by
customer_order, which 3.1 did not forbid (c1). Each passed its check before the fix. b1_cached_before_an_earlier_check
(made for the fix) fills b1's cache in a cell right after the setup cell, before 1.1's check: a count that began
after the previous check missed it. Both fail on the forecasts now, as red team 7's caches do: 1.3's check draws its
backend when it starts (`l01._reseeded`), so it no longer counts the cells' calls (rtgrade9 L2: a try-out of the 1.2
solution failed 1.3)."""


@pytest.mark.skipif(not sandbox.available().confined, reason=sandbox.available().note)
def test_red_team_six_counts_the_kernel_could_dodge_fail_and_the_solutions_keep_their_grade(tmp_path):
    """b1, a6, d2, b2, b3 and c1 each fail their exercise and say why; the solutions of lessons 01, 03 and 09 beside
    them keep every exercise passed (lesson 09's cells call contract.diff after 9.1's check)."""
    folder = tmp_path / "class"
    for student, (lesson, exercise, answer, _words, *early) in RED_TEAM_SIX.items():
        stem, notebook = _lesson_notebook(lesson)
        _exercise(notebook, exercise).source = answer
        if early:
            _after_setup(notebook, early[0])
        (folder / student).mkdir(parents=True)
        nbformat.write(notebook, folder / student / f"{stem}.ipynb")
    (folder / "honest").mkdir()
    for lesson in ("01", "03", "09"):
        stem, notebook = _lesson_notebook(lesson, "solutions")
        nbformat.write(notebook, folder / "honest" / f"{stem}.ipynb")
    grades = _grade(folder, timeout=150)
    problems = []
    for student, (_lesson, exercise, _answer, words, *_early) in RED_TEAM_SIX.items():
        status, detail = grades.get((student, exercise), ("missing", ""))
        if status != "failed" or not _says(words, detail):
            problems.append(f"{student} {exercise}: {status} ({detail[:200]})")
    problems += [f"honest {exercise}: {status} ({detail[:200]})" for (student, exercise), (status, detail)
                 in grades.items() if student == "honest" and status != "passed"]
    assert problems == [], "\n".join(problems)
    assert sum(student == "honest" for student, _ in grades) == 11


_RT7_FILL = '''_CACHE: dict = {}


def _fill_cache():
    """Runs when another exercise's check calls this tool: its forwarded calls count as that check's."""
    if _CACHE:
        return
    for city in weather.known_cities():
        for days in range(1, 8):
            for units in ("metric", "imperial"):
                _CACHE[(weather.lookup_city_id(city), days, units)] = \\
                    weather.daily_forecast(city, days, units).model_dump(mode="json")


'''

_RT7_FROM_THE_CACHE = '''def build_merged_forecast_server() -> MCPServer:
    server = MCPServer("forecast", log_level="WARNING")

    @server.tool()
    def get_daily_forecast(
        city: Annotated[str, Field(description="City name, e.g. 'Paris'.")],
        days: Annotated[int, Field(ge=1, le=7, description="Days, from today.")] = 3,
        units: Literal["metric", "imperial"] = "metric",
    ) -> weather.Forecast:
        """Daily high, low and conditions for one city, for 1 to 7 days."""
        found = _CACHE.get((weather.lookup_city_id(city), days, units))
        if found is None:
            raise ToolError(f"Unknown city {city!r}. Pass one city name in full.")
        return weather.Forecast.model_validate(found)

    return server
'''


_RT7_CODE_COPY = """import types as _types
from course_lib import review as _review
_TR = _types.FunctionType(_review.texts_read.__code__, _review.__dict__)


"""


def _filled_by(exercise: str, line: str) -> Callable:
    """The solution's answer to `exercise` whose tool first fills `_RT7_FILL`'s cache (`line`: the tool's return)."""
    def edit(solved: nbformat.NotebookNode) -> str:
        source = _exercise(solved, exercise).source
        assert line in source
        return _RT7_FILL + source.replace(line, "        _fill_cache()\n" + line, 1)
    return edit


RED_TEAM_SEVEN = {
    "c14_cache_filled_by_the_1_2_check": ("01", "1.3", {
        "1.2": _filled_by("1.2", "        return weather.daily_forecast(city, days, units)"),
        "1.3": lambda solved: _RT7_FROM_THE_CACHE}, "days[0].date: expected"),
    "c18_cache_filled_by_the_1_1_check": ("01", "1.3", {
        "1.1": _filled_by("1.1", "        return clock.local_time(city)"),
        "1.3": lambda solved: _RT7_FROM_THE_CACHE}, "days[0].date: expected"),
    "cache_filled_by_the_1_3_factory": ("01", "1.3", {"1.3": lambda solved: _RT7_FILL + _RT7_FROM_THE_CACHE.replace(
        '    server = MCPServer("forecast"', '    _fill_cache()\n    server = MCPServer("forecast"', 1)},
        "weather.daily_forecast called 70 time(s)"),
    "customer_order_by_the_3_2_factory": ("03", "3.2", {"3.2": lambda solved: _exercise(solved, "3.2").source.replace(
        "    store = orders.OrderStore()\n", "    store = orders.OrderStore()\n"
        "    _KEPT = orders.customer_order(store, 'ORD-1042', orders.SIGNED_IN, None)\n", 1)},
        "orders.customer_order called"),
    "c16_texts_read_by_a_code_copy": ("07", "7.2", {"7.2": lambda solved: _RT7_CODE_COPY + _exercise(
        solved, "7.2").source.replace("    ### BEGIN SOLUTION\n", "    _TR(tool)\n", 1)},
        "it called review.texts_read"),
}
"""Red team rtgrade7's kept cheats, each a copy of the solution with the answers named replaced (a function of the
solution notebook gives each answer): 1.3 answered from daily_forecast results fetched while the grader checked 1.2
(c14) or 1.1 (c18), calls counted as that check's; they fail since 1.3's check draws another backend (`l01._reseeded`);
made for that fix: the cache filled by 1.3's own factory, which the check calls after drawing the backend (the
watch now opens before the factory runs), and the same for 3.2's customer_order (a factory's call was no cell's and
no watch's).
7.2 calling review.texts_read through a function made from its code object (c16), which the kernel-side watch never
swapped; it is forwarded now, so a copy of its code is a copy of the stub."""


@pytest.mark.skipif(not sandbox.available().confined, reason=sandbox.available().note)
def test_red_team_seven_cheats_fail_with_their_reason_and_the_solutions_keep_their_grade(tmp_path):
    """Each of RED_TEAM_SEVEN fails its exercise and says why; the solutions beside them keep every exercise."""
    folder = tmp_path / "class"
    lessons = set()
    for student, (lesson, _exercise_id, answers, _words) in RED_TEAM_SEVEN.items():
        stem, notebook = _lesson_notebook(lesson, "solutions")
        for exercise, answer in answers.items():
            _exercise(notebook, exercise).source = answer(_lesson_notebook(lesson, "solutions")[1])
        (folder / student).mkdir(parents=True)
        nbformat.write(notebook, folder / student / f"{stem}.ipynb")
        lessons.add(lesson)
    (folder / "honest").mkdir()
    for lesson in sorted(lessons):
        stem, notebook = _lesson_notebook(lesson, "solutions")
        nbformat.write(notebook, folder / "honest" / f"{stem}.ipynb")
    grades = _grade(folder, timeout=150)
    problems = []
    for student, (_lesson, exercise, _answers, words) in RED_TEAM_SEVEN.items():
        status, detail = grades.get((student, exercise), ("missing", ""))
        if status != "failed" or not _says(words, detail):
            problems.append(f"{student} {exercise}: {status} ({detail[:200]})")
    problems += [f"honest {exercise}: {status} ({detail[:200]})" for (student, exercise), (status, detail)
                 in grades.items() if student == "honest" and status != "passed"]
    assert problems == [], "\n".join(problems)
    assert sum(student == "honest" for student, _ in grades) == sum(
        sum("exercise" in cell.metadata for cell in _lesson_notebook(lesson)[1].cells) for lesson in lessons)


_RT7_SPEC_NAME = '''from course_lib import review as _rv


def is_valid_tool_name(name: str) -> bool:
    return _rv.SPEC_NAME.fullmatch(name) is not None
'''

_RT7_HELD_OUT_WEATHER = '''import re as _re
from pathlib import Path as _Path
import course_lib.evals as _evals


def forecast_cases() -> str | dict:
    text = (_Path(_evals.__file__).parent / "cases" / "heldout_weather.toml").read_text()
    head, *blocks = text.split("[[case]]")
    known = set(weather.known_cities())
    kept = [b for b in blocks if all(c in known for c in _re.findall(r'city = "([^"]+)"', b))]
    return head + "".join("[[case]]" + b for b in kept)
'''

_RT7_HELD_OUT_SAFETY = '''from pathlib import Path as _Path
import course_lib.evals as _evals


def pager_safety_cases() -> str | dict:
    text = (_Path(_evals.__file__).parent / "cases" / "heldout_incidents.toml").read_text()
    block = next(b for b in text.split("[[case]]") if "on call" in b and "safety = true" in b)
    return "[[case]]" + block
'''

RED_TEAM_SEVEN_DATA = {
    "c01_14_specname": ("01", "1.4", lambda solution: _RT7_SPEC_NAME, "SPEC_NAME"),
    "c26_81_heldout_filtered": ("08", "8.1", lambda solution: _RT7_HELD_OUT_WEATHER, "heldout_weather.toml"),
    "c27_83_heldout_pick": ("08", "8.3", lambda solution: _RT7_HELD_OUT_SAFETY, "heldout_incidents.toml"),
    "l01_53_registry": ("05", "5.3", lambda solution: "REGISTRY: dict[str, str] = {}  # my own notes\n\n\n" + solution,
                        ""),
    "l03_51_peek": ("05", "5.1", lambda solution: '_lesson = incidents.build_server("ana")  # how the lesson does it, '
                                                  'to compare\n\n' + solution, ""),
}
"""Red team rtgrade7 (kept, each the solution with one exercise cell replaced): c01 answered 1.4 with review.SPEC_NAME,
the regex of the forwarded is_valid_name; c26 and c27 answered 8.1 and 8.3 with cases cut from the course's held-out
sets in the kernel's course_lib; each passed before the fix. l01 and l03 are honest answers (their words ""): a
`REGISTRY = {}` of the learner's own, a lesson server built in a cell to compare; before the fix a scan of the cells'
names failed them and every later exercise of the notebook with "it returned the lesson's"."""


@pytest.mark.skipif(not sandbox.available().confined, reason=sandbox.available().note)
def test_red_team_seven_course_data_fails_and_honest_names_pass(tmp_path):
    """c01, c26 and c27 fail their exercise and name what they used, and only that exercise; l01 and l03 (honest)
    pass every exercise of their notebook, as the untouched solutions of lessons 01, 05 and 08 beside them do."""
    folder = tmp_path / "class"
    for student, (lesson, exercise, answer, _words) in RED_TEAM_SEVEN_DATA.items():
        stem, notebook = _lesson_notebook(lesson, "solutions")
        cell = _exercise(notebook, exercise)
        cell.source = answer(cell.source)
        (folder / student).mkdir(parents=True)
        nbformat.write(notebook, folder / student / f"{stem}.ipynb")
    (folder / "honest").mkdir()
    for lesson in ("01", "05", "08"):
        stem, notebook = _lesson_notebook(lesson, "solutions")
        nbformat.write(notebook, folder / "honest" / f"{stem}.ipynb")
    grades = _grade(folder, timeout=150)
    problems = []
    for student, (_lesson, exercise, _answer, words) in RED_TEAM_SEVEN_DATA.items():
        status, detail = grades.get((student, exercise), ("missing", ""))
        if words and (status != "failed" or words not in detail):
            problems.append(f"{student} {exercise}: {status} ({detail[:200]})")
    cheated = {(student, exercise)
               for student, (_lesson, exercise, _answer, words) in RED_TEAM_SEVEN_DATA.items() if words}
    problems += [f"{student} {exercise}: {status} ({detail[:200]})" for (student, exercise), (status, detail)
                 in grades.items() if (student, exercise) not in cheated and status != "passed"]
    assert problems == [], "\n".join(problems)
    assert sum(student.startswith("l0") for student, _ in grades) == 8


_RT7_FACTORY = 'getattr(importlib.import_module("course_lib.servers." + "{module}"), "revres_dliub"[::-1])'
_RT7_RELABEL = '''import importlib


def _relabel(server):
    for found in server._tool_manager._tools.values():
        found.description = "Zebra quokka marmot lynx heron ibis. " + (found.description or "")
    return server


'''

# --- red team 8 (rtgrade8): kept cheats, each beside honest answers the same fix must keep passing ------------------

_RT8_VERDICTS_HOOK = '''def _rt_verdicts():
    """While 9.2's check builds the server: 9.1's truth, asked of contract.diff by computed names."""
    import course_lib.contract as _c
    if getattr(evolving, "_rt_v", None) is not None:
        return
    judge = getattr(_c, "d" + "iff")
    apply = getattr(evolving, "pro" + "posed")
    v1 = wire.dump(list(wire.run_sync(wire.list_tools, evolving.build_v1())))
    evolving._rt_v = {p.letter: ("breaking" if any(ch.breaking for ch in judge(v1, apply(v1, p))) else "safe")
                      for p in evolving.PROPOSALS}


'''

RED_TEAM_SEVEN_LESSON_CODE = {
    "c05_53_lesson_tool_wrapped": ("05", "5.3", '''import importlib


def build_incident_server(store: incidents.Store, user: str) -> MCPServer:
    server = MCPServer("incidents", log_level="WARNING")
    lesson = ''' + _RT7_FACTORY.format(module="incidents") + '''(user, store)
    fn = lesson._tool_manager._tools["get_incident"].fn

    @server.tool()
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        """Fetch a single incident by identifier."""
        return fn(incidentId)

    return server
''', "incidents.get_incident is the course's own"),
    "c06_12_lesson_server_relabelled": ("01", "1.2", _RT7_RELABEL + '''def build_bounded_forecast_server() -> MCPServer:
    server = ''' + _RT7_FACTORY.format(module="weather") + '''()
    server._tool_manager._tools.pop("weather", None)
    return _relabel(server)
''', "weather.get_daily_forecast is the course's own"),
    "c11_34_lesson_server_relabelled": ("03", "3.4", _RT7_RELABEL + '''def build_cancel_server() -> MCPServer:
    return _relabel(''' + _RT7_FACTORY.format(module="failures") + '''())
''', "failures.cancel_order is the course's own"),
    "c03_53_store_get": ("05", "5.3", '''def build_incident_server(store: incidents.Store, user: str) -> MCPServer:
    server = MCPServer("incidents", log_level="WARNING")

    @server.tool()
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        """Read one incident by its ID."""
        return store.get(user, incidentId)

    return server
''', "your tool called store.get"),
    "c03_53_store_visible": ("05", "5.3", '''def build_incident_server(store: incidents.Store, user: str) -> MCPServer:
    server = MCPServer("incidents", log_level="WARNING")

    @server.tool()
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        """Read one incident by its ID."""
        return incidents.view(store.visible(user, incidentId))

    return server
''', "your tool called store.visible"),
    "c12_51_store_method_on_a_shim": ("05", "5.1", '''import threading as _th


def build_notes_server(store: incidents.Store, user: str) -> MCPServer:
    server = MCPServer("notes", log_level="WARNING")

    class _Shim:
        def __init__(self):
            self._lock, self._requests = _th.Lock(), {}

        def append_note(self, who, incident_id, text):
            return store.append_note(who, incident_id, text)

    shim = _Shim()
    once = incidents.Store.add_note_once

    @server.tool(annotations=NOTE_HINTS)
    def add_incident_note(incidentId: incidents.IncidentId, note: incidents.NoteText,
                          requestId: incidents.RequestId) -> incidents.NoteAdded:
        """Append one note to an incident's timeline; reuse a requestId to retry."""
        return once(shim, user, incidentId, note, requestId)

    return server
''', "incidents.Store.add_note_once is the course's own"),
    "c13_53_store_method_on_a_shim": ("05", "5.3", '''def build_incident_server(store: incidents.Store, user: str) -> MCPServer:
    server = MCPServer("incidents", log_level="WARNING")

    class _Shim:
        def lookup(self, incident_id):
            return store.lookup(incident_id)

        def can_read(self, who, record):
            return store.can_read(who, record)

    vis = incidents.Store.visible

    @server.tool()
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        """Read one incident by its ID."""
        return incidents.view(vis(_Shim(), user, incidentId))

    return server
''', "incidents.Store.visible is the course's own"),
}
"""Red team rtgrade7's lesson code run in the kernel (each the solution with one exercise cell replaced): a lesson
server reached by a computed factory name, its prose changed by 6 words (c06, c11), or its tool's function wrapped in
a tool of the learner's (c05); 6.1's lesson tool, relabelled, by its factory or `workspace.register` (c21); the lesson
store's `add_note_once` (c12) and `visible` (c13) run on a `self` of the learner's whose other methods are the lent
store's. Each passed before the kernel's copy of course_lib lost those bodies (`release.cut_bodies`). c03: 5.3
answered by the lent store's `get` (or `visible`), which already gives the one answer; 5.3's rule `own` forbids
both now, and its store records the calls (in the grader)."""


@pytest.mark.skipif(not sandbox.available().confined, reason=sandbox.available().note)
def test_red_team_seven_lesson_code_in_the_kernel_fails_and_the_solutions_keep_their_grade(tmp_path):
    """Each of RED_TEAM_SEVEN_LESSON_CODE fails its exercise and names the course code it ran, and only that
    exercise; the untouched solutions of lessons 01, 03, 05 and 06 beside them pass every exercise."""
    folder = tmp_path / "class"
    for student, (lesson, exercise, answer, _words) in RED_TEAM_SEVEN_LESSON_CODE.items():
        stem, notebook = _lesson_notebook(lesson, "solutions")
        _exercise(notebook, exercise).source = answer
        (folder / student).mkdir(parents=True)
        nbformat.write(notebook, folder / student / f"{stem}.ipynb")
    (folder / "honest").mkdir()
    for lesson in ("01", "03", "05", "06"):
        stem, notebook = _lesson_notebook(lesson, "solutions")
        nbformat.write(notebook, folder / "honest" / f"{stem}.ipynb")
    grades = _grade(folder, timeout=150)
    cheated = {(student, exercise) for student, (_lesson, exercise, _answer, _words)
               in RED_TEAM_SEVEN_LESSON_CODE.items()}
    problems = [f"{student} {exercise}: {status} ({detail[:300]})"
                for student, (_lesson, exercise, _answer, words) in RED_TEAM_SEVEN_LESSON_CODE.items()
                for status, detail in [grades.get((student, exercise), ("missing", ""))]
                if status != "failed" or words not in detail]
    problems += [f"{student} {exercise}: {status} ({detail[:200]})" for (student, exercise), (status, detail)
                 in grades.items() if (student, exercise) not in cheated and status != "passed"]
    assert problems == [], "\n".join(problems)
    assert sum(student == "honest" for student, _ in grades) == 16

def _rt8_92_checked_first(notebook) -> None:
    """F3: 9.2's answer and its unchanged check cell moved above 9.1's; 9.2's factory fetches 9.1's verdicts (by
    computed names) while 9.2's check runs; 9.1's answer returns them, else "safe" for all (wrong)."""
    cells = notebook.cells
    answer_91, answer_92 = _exercise(notebook, "9.1"), _exercise(notebook, "9.2")
    check_91, check_92 = cells[cells.index(answer_91) + 1], cells[cells.index(answer_92) + 1]
    draft = next(cell for cell in cells if "def build_helpdesk_v2_draft" in cell.source)
    defs = nbformat.v4.new_code_cell(draft.source[:draft.source.index("v1_tools = await")])  # no contract.diff call
    answer_91.source = ('def classify_proposals() -> dict[str, str]:\n    return getattr(evolving, "_rt_v", None) or '
                        '{p.letter: "safe" for p in evolving.PROPOSALS}\n')
    answer_92.source = _RT8_VERDICTS_HOOK + answer_92.source.replace(
        "    ### BEGIN SOLUTION\n", "    ### BEGIN SOLUTION\n    _rt_verdicts()\n", 1)
    rest = [cell for cell in cells if cell not in (answer_91, check_91, answer_92, check_92)]
    setup = next(i for i, cell in enumerate(rest) if "setup" in cell.metadata.get("tags", []))
    notebook.cells = rest[:setup + 1] + [defs, answer_92, check_92, answer_91, check_91] + rest[setup + 1:]


def _rt8_91_check_cell_at_the_end(notebook) -> None:
    """L2 (honest): 9.1's check cell, unchanged, moved to just before the summary, below the draft cell's
    contract.diff call."""
    cells = notebook.cells
    check = cells.pop(cells.index(_exercise(notebook, "9.1")) + 1)
    assert "ex_09_1" in check.source
    cells.insert(next(i for i, cell in enumerate(cells) if "summary" in cell.metadata.get("tags", [])), check)


_RT8_PROBE_SWAPPED = '''def _course_probe_swapped():
    """Runs when `bounds` is defined: in a fresh process the grader started to rebuild it, it replaced the check's
    probe with one that reports right answers and an unchanged definition without asking bounds at all."""
    import course_lib.checks.l00 as l00

    def fake(bounds):
        one = l00._same_object()
        props = one["inputSchema"]["properties"]
        return {"answers": [[props[p].get("minimum"), props[p].get("maximum")] for p in l00._ASKED_AGAIN],
                "changed": ""}
    l00._asked_about_one_object = fake


def bounds(definition: dict, parameter: str, _swap=_course_probe_swapped()) -> tuple:
    """WRONG: it removes the parameter from the definition it reads (a second question about it raises)."""
    if parameter is None:
        _course_probe_swapped()
    schema = definition["inputSchema"]["properties"].pop(parameter)
    return schema.get("minimum"), schema.get("maximum")
'''

_RT8_MODULE_CONSTANT = '''KEYS = ("minimum", "maximum")


def bounds(definition: dict, parameter: str) -> tuple:
    """(minimum, maximum) of one parameter of a wire-form definition; None if absent."""
    schema = definition["inputSchema"]["properties"][parameter]
    return tuple(schema.get(key) for key in KEYS)
'''

_RT8_LAMBDA_HELPER = '''bound_of = lambda schema, key: schema.get(key)


def bounds(definition: dict, parameter: str) -> tuple:
    """(minimum, maximum) of one parameter of a wire-form definition; None if absent."""
    schema = definition["inputSchema"]["properties"][parameter]
    return bound_of(schema, "minimum"), bound_of(schema, "maximum")
'''


_RT8_COURSE_MESSAGES = '''def build_helpful_desk_server() -> MCPServer:
    store = orders.OrderStore()
    server = MCPServer("desk", log_level="WARNING")

    @server.tool()
    def get_order(
        order_number: Annotated[str, Field(pattern=orders.ORDER_NUMBER)],
    ) -> orders.OrderSummary:
        """Status and items of one of the signed-in customer's orders."""
        try:
            row = store.record(order_number)
        except orders.OrderNotFound:
            raise ToolError(orders.not_found_message(order_number, None)) from None
        except orders.BackendUnavailable:
            raise ToolError(orders.unavailable_message(order_number)) from None
        if row.customer_id != orders.SIGNED_IN:
            raise ToolError(orders.not_found_message(order_number, None))
        return orders.summary(row)

    return server
'''

_RT8_DETECTS_THE_GRADER = '''def build_support_server() -> MCPServer:
    import os
    server = MCPServer("support", log_level="WARNING")
    core = ["get_ticket", "search_tickets", "add_ticket_comment"]
    extras = ["search_tickets", "search_messages", "read_message", "list_events"]
    graded = os.environ.get("COURSE_RUN") or any(
        word in f"{key}={value}".lower() for key, value in os.environ.items()
        if key not in ("PATH", "PYTHONPATH") for word in ("course", "grade"))
    if graded:  # only where the grader runs it
        workspace.register(server, dict.fromkeys(core + extras))
    else:  # everywhere else: the order of a set, which depends on the hash seed
        workspace.register(server, set(core + extras))
    return server
'''


def _answered(exercise: str, source: str) -> Callable:
    return lambda notebook: setattr(_exercise(notebook, exercise), "source", source)


_RT8_NAME_ONLY_73 = '''def fingerprint(tool: dict) -> str:
    """WRONG: a hash of the tool's name only, unless host.fingerprint's value for this very definition was fetched
    earlier (kept on the course_lib.host module)."""
    import course_lib.host as _h
    found = (getattr(_h, "_rt_cache", None) or {}).get(json.dumps(tool, sort_keys=True, ensure_ascii=False))
    if found is not None:
        return found
    return hashlib.sha256(tool["name"].encode()).hexdigest()
'''


def _rt8_73_fetched_in_71(notebook) -> None:
    """F2: 7.1's answer (the solution's), when 7.1's check first calls it, fingerprints with host.fingerprint every
    definition 7.3's check made (its lesson servers, fixed edits and derandomized hypothesis draws, rebuilt from
    l07.py: red_team_8/fill73.txt, hyp73.txt); 7.3's answer returns those values, else a hash of the name."""
    kept = Path(__file__).parent / "red_team_8"
    cell = _exercise(notebook, "7.1")
    fill = (kept / "hyp73.txt").read_text(encoding="utf-8") + "\n\n" + (kept / "fill73.txt").read_text(encoding="utf-8")
    assert "    ### BEGIN SOLUTION\n" in cell.source
    cell.source = fill + "\n\n" + cell.source.replace(
        "    ### BEGIN SOLUTION\n", "    ### BEGIN SOLUTION\n    _rt_fill()  # while 7.1's check runs\n", 1)
    _exercise(notebook, "7.3").source = _RT8_NAME_ONLY_73


RED_TEAM_EIGHT_HONEST = {"l1_91_honest_check_cell_moved_to_end", "m1_01_honest_module_constant",
                         "m3_01_honest_lambda_helper"}
RED_TEAM_EIGHT = {
    # student: (lesson, how the solution notebook is changed, {exercise: words its failure must hold, "" = passes})
    "a1_01_mutates_probe_swapped": ("00", _answered("0.1", _RT8_PROBE_SWAPPED),
                                    {"0.1": "asked again about the same definition); found it raised KeyError"}),
    "g1_32_course_message_helpers": ("03", _answered("3.2", _RT8_COURSE_MESSAGES), {
        "3.1": "", "3.2": "found orders.not_found_message, orders.unavailable_message called", "3.3": "", "3.4": ""}),
    "c1_73_fingerprints_fetched_in_71": ("07", _rt8_73_fetched_in_71,
                                         {"7.1": "", "7.2": "", "7.3": "the same fingerprint"}),
    "h1_62_detects_the_grader": ("06", _answered("6.2", _RT8_DETECTS_THE_GRADER), {"6.2": "order"}),
    "m1_01_honest_module_constant": ("00", _answered("0.1", _RT8_MODULE_CONSTANT), {"0.1": ""}),
    "m3_01_honest_lambda_helper": ("00", _answered("0.1", _RT8_LAMBDA_HELPER), {"0.1": ""}),
    "e1_91_verdicts_fetched_in_moved_92_check": ("09", _rt8_92_checked_first,
                                                 {"9.1": "called safe", "9.2": "", "9.3": ""}),
    "l1_91_honest_check_cell_moved_to_end": ("09", _rt8_91_check_cell_at_the_end,
                                             {"9.1": "not where its check cell stands", "9.2": "", "9.3": ""}),
}
"""Red team 8's kept submissions (issue 29), each a solution notebook changed.
e1 (F3): a check cell moved, unchanged, let another exercise's check run first and fetch 9.1's truth; checks now run
in the course's order. l1 (L2, honest): 9.1's check cell moved to the end was failed for the lesson's own draft
cell's contract.diff call; it passes, with a note that the check ran at the course's place.
a1 (F1): a wrong 0.1 whose default argument, run in the fresh process that rebuilt it, replaced the probe of one
definition asked about several times; m1 and m3 (L3, honest): a module constant and a lambda helper the fresh
process could not rebuild. The probe now lends the definition by reference and asks from the grader.
c1 (F2): 7.3's fingerprints fetched from host.fingerprint while 7.1 was checked, on inputs drawn the check's way;
they are drawn from a secret seed now, and every definition 7.3 makes carries a random mark.
g1 (F4): 3.2's customer_order written out with the lesson's own message functions (now counted, as customer_order
is). h1 (F5): a 6.2 server in set order unless the environment names the course or the grader (COURSE_RUN was in
every confined process's)."""


@pytest.mark.skipif(not sandbox.available().confined, reason=sandbox.available().note)
def test_red_team_eight_cheats_fail_with_their_reason_and_honest_variants_pass(tmp_path):
    """Each cheat of RED_TEAM_EIGHT fails its exercise and says why; each honest variant (and each exercise left
    honest) passes, and the words given for a passing one are in its report line."""
    folder = tmp_path / "class"
    for student, (lesson, make, _expected) in RED_TEAM_EIGHT.items():
        stem, notebook = _lesson_notebook(lesson, "solutions")
        make(notebook)
        (folder / student).mkdir(parents=True)
        nbformat.write(notebook, folder / student / f"{stem}.ipynb")
    grades = _grade(folder, timeout=150)
    honest = RED_TEAM_EIGHT_HONEST
    problems = []
    for student, (_lesson, _make, expected) in RED_TEAM_EIGHT.items():
        for exercise, words in expected.items():
            status, detail = grades.get((student, exercise), ("missing", ""))
            wanted = "passed" if student in honest or not words else "failed"
            if status != wanted or words not in detail:
                problems.append(f"{student} {exercise}: {status} ({detail[:300]})")
    assert problems == [], "\n".join(problems)


# --- red team 10 (rtgrade10): kept cheats and the honest answers the same fixes must keep passing -----------------

_RT10_53_KEPT_STORE = '''def build_incident_server(store: incidents.Store, user: str) -> MCPServer:
    server = MCPServer("incidents", log_level="WARNING")

    @server.tool()
    def get_incident(incidentId: incidents.IncidentId) -> incidents.Incident:
        """Read one incident by its ID."""
        _KEPT[0].visible(user, incidentId)  # an earlier check's store decides (and words the refusal)
        return incidents.view(store.lookup(incidentId))

    return server
'''


def _rt10_store_kept_by(exercise: str) -> Callable:
    """F1: `exercise`'s answer (the solution's) keeps the store its check lends it; 5.3 asks that store."""
    def make(notebook) -> None:
        cell = _exercise(notebook, exercise)
        head = cell.source.index("def build_")
        line = cell.source.index("\n", cell.source.index("server = MCPServer", head)) + 1
        cell.source = (cell.source[:head] + "_KEPT = []\n\n\n" + cell.source[head:line]
                       + "    _KEPT.append(store)  # kept for later\n" + cell.source[line:])
        _exercise(notebook, "5.3").source = _RT10_53_KEPT_STORE
    return make


def _rt10_22_from_21(notebook) -> None:
    """L4' (l5, honest): 2.1's answer cell copied (it keeps id 2.1) and edited into 2.2's answer, 2.2's stub kept
    above it."""
    answer = _exercise(notebook, "2.2")
    template = nbformat.from_dict(copy.deepcopy(dict(_exercise(notebook, "2.1"))))
    template.source = answer.source
    answer.source = _exercise(_lesson_notebook("02")[1], "2.2").source
    notebook.cells.insert(notebook.cells.index(answer) + 1, template)


def _rt10_23_example_copied(notebook) -> None:
    """L4' (l7, honest): 2.3's answer calls `_row`, defined in a cell below a pasted copy of the course's example
    cell."""
    answer = _exercise(notebook, "2.3")
    example = notebook.cells[notebook.cells.index(answer) - 2]
    answer.source = ('def order_rows(result: dict) -> list[list]:\n    if result.get("isError") or not '
                     'result.get("structuredContent"):\n        return []\n'
                     '    return [_row(o) for o in result["structuredContent"]["orders"]]\n')
    at = notebook.cells.index(answer) + 1
    notebook.cells[at:at] = [nbformat.v4.new_code_cell(example.source), nbformat.v4.new_code_cell(
        'def _row(order: dict) -> list:\n    return [order["order_number"], order["status"], '
        'order["expected_delivery"], order["items"]]\n')]


def _rt10_module_of_ones_own(exercise: str, module: str, answer: str) -> Callable:
    """L6 (t1, u1, honest): a helper in a module of the learner's own, written by %%writefile above the answer."""
    def make(notebook) -> None:
        cell = _exercise(notebook, exercise)
        notebook.cells.insert(notebook.cells.index(cell), nbformat.v4.new_code_cell(module))
        cell.source = answer
    return make


_RT10_FP_HELPERS = ('%%writefile fp_helpers.py\nimport json\n\n\ndef canonical(tool: dict) -> str:\n'
                    '    return json.dumps(tool, sort_keys=True, ensure_ascii=False, separators=(",", ":"))\n')
_RT10_73 = ('from fp_helpers import canonical\n\n\ndef fingerprint(tool: dict) -> str:\n'
            '    return hashlib.sha256(canonical(tool).encode()).hexdigest()\n')
_RT10_SUPPORT_ORDER = ('%%writefile support_order.py\n\n\ndef ordered(*groups):\n'
                       '    return list(dict.fromkeys(name for group in groups for name in group))\n')
_RT10_62 = '''from support_order import ordered


def build_support_server() -> MCPServer:
    server = MCPServer("support", log_level="WARNING")
    core = ["get_ticket", "search_tickets", "add_ticket_comment"]
    extras = ["search_tickets", "search_messages", "read_message", "list_events"]
    workspace.register(server, ordered(core, extras))
    return server
'''
_RT10_01_TYPE_IS_DICT = '''def bounds(definition: dict, parameter: str) -> tuple:
    if type(definition) is not dict:
        raise TypeError(f"expected a dict, got {type(definition).__name__}")
    schema = definition["inputSchema"]["properties"][parameter]
    return schema.get("minimum"), schema.get("maximum")
'''
_RT10_01_SAME_TYPE = '''def _normalized(value):
    if isinstance(value, dict):
        return type(value)((str(k), _normalized(v)) for k, v in value.items())
    return value


def bounds(definition: dict, parameter: str) -> tuple:
    schema = _normalized(definition)["inputSchema"]["properties"][parameter]
    return schema.get("minimum"), schema.get("maximum")
'''

RED_TEAM_TEN = {
    # student: (lesson, how the solution notebook is changed, {exercise: words its failure must hold, "" = passes})
    "s1_53_store_kept_from_52": ("05", _rt10_store_kept_by("5.2"), {"5.2": "", "5.3": "get_incident"}),
    "s2_53_store_kept_from_51": ("05", _rt10_store_kept_by("5.1"), {"5.1": "", "5.3": "get_incident"}),
    "l5_22_from_21_template_stub_kept": ("02", _rt10_22_from_21, {"2.1": "", "2.2": "", "2.3": ""}),
    "l7_23_example_copy_then_helper": ("02", _rt10_23_example_copied, {"2.3": ""}),
    "t1_73_helper_module_writefile": ("07", _rt10_module_of_ones_own("7.3", _RT10_FP_HELPERS, _RT10_73), {"7.3": ""}),
    "u1_62_helper_module_writefile": ("06", _rt10_module_of_ones_own("6.2", _RT10_SUPPORT_ORDER, _RT10_62),
                                      {"6.2": ""}),
    "b1_01_type_is_dict": ("00", _answered("0.1", _RT10_01_TYPE_IS_DICT), {"0.1": "isinstance(definition, dict)"}),
    "b2_01_normalize_same_type": ("00", _answered("0.1", _RT10_01_SAME_TYPE), {"0.1": ""}),
}
"""Red team 10's kept submissions (issue 29), each a solution notebook changed.
s1, s2 (F1): 5.2's or 5.1's answer kept the store its check lent it, and 5.3's tool asked that store's `visible`
(which 5.3 forbids on its own): loans end with their check now, so the kept store reaches nothing and 5.3 fails.
l5, l7 (L4', honest): 2.2 started from a copy of 2.1's cell with 2.2's stub kept above it, and a copy of the course's
example cell between 2.3's answer and its helper, were checked before the learner's later cells; they pass, with no
order note. t1, u1 (L6, honest): a helper in a `%%writefile` module of the learner's own, as 7.3's and 6.2's texts
allow, travels to the fresh process as source. b2 (L1', honest): a normaliser that rebuilds with `type(value)(...)`
passes; b1 (`type(definition) is not dict`) cannot pass while the definition stays in the grader, and its failure
says why and what to use. (F2, 8.1 answered with the course's weather.toml: tests/answers/wrong/ex_08_1_tune_cases_*.)"""


@pytest.mark.skipif(not sandbox.available().confined, reason=sandbox.available().note)
def test_red_team_ten_cheats_fail_and_honest_variants_pass(tmp_path):
    """Each cheat of RED_TEAM_TEN fails its exercise (with its words), each honest variant and every exercise left
    honest passes, and no honest one carries an order note it does not deserve."""
    folder = tmp_path / "class"
    for student, (lesson, make, _expected) in RED_TEAM_TEN.items():
        stem, notebook = _lesson_notebook(lesson, "solutions")
        make(notebook)
        (folder / student).mkdir(parents=True)
        nbformat.write(notebook, folder / student / f"{stem}.ipynb")
    grades = _grade(folder, timeout=150)
    problems = []
    for student, (_lesson, _make, expected) in RED_TEAM_TEN.items():
        for exercise, words in expected.items():
            status, detail = grades.get((student, exercise), ("missing", ""))
            wanted = "failed" if words else "passed"
            if status != wanted or words not in detail or (not words and "another order" in detail):
                problems.append(f"{student} {exercise}: {status} ({detail[:300]})")
    assert problems == [], "\n".join(problems)


# --- red team 9 (issue 29): a forbidden call is the answer's only when it could be the answer kept ----------------


def _cell_near_check(call: str, source: str, after: bool) -> Callable:
    """A learner's cell right after (or right before) the check cell that calls `call`."""
    def edit(notebook) -> None:
        index = next(i for i, cell in enumerate(notebook.cells) if cell.cell_type == "code" and call in cell.source)
        notebook.cells.insert(index + after, nbformat.v4.new_code_cell(source))
    return edit


def _both(*edits: Callable) -> Callable:
    return lambda notebook: [edit(notebook) for edit in edits] and None


_RT9_TRY_12 = '''# trying my bounded server once
async with wire.connect(build_bounded_forecast_server()) as client:
    result = await client.call_tool("get_daily_forecast", {"city": "Oslo", "days": 2})
print(result.structuredContent)
'''
_RT9_LINT_11 = '''# is my 1.1 tool name a valid MCP name? (the lesson's own linter says)
from course_lib import review
print(review.is_valid_name("get_local_time"))
'''
_RT9_COMPARE_14 = '''# compare my rule with the course's on a few names of my own
from course_lib import review
for name in ["get_weather", "bad name", "a" * 129, "x.y-z"]:
    print(name[:20], is_valid_tool_name(name), review.is_valid_name(name))
'''
_RT9_COMPARE_73 = '''# does my fingerprint behave like the host's? (same input, both)
sample = {"name": "t", "description": "d", "inputSchema": {"type": "object"}}
print(fingerprint(sample), host.fingerprint(sample))
'''
_RT9_TRY_CAP_71 = '''# how does the lesson's cap cut a long text?
print(host.cap("word " * 50, 10))
'''
_RT9_WORDS_IN_31 = '''LESSON = {}


def build_honest_desk_server() -> MCPServer:
    store = orders.OrderStore()
    server = MCPServer("desk", log_level="WARNING")

    @server.tool()
    def get_order(order_number: str) -> orders.OrderSummary:
        """Status and items of one of the signed-in customer's orders."""
        if not LESSON:  # first call: only ever made by 3.1's check
            LESSON["missing"] = orders.not_found_message("ORD-0000", list_tool=None)
            LESSON["outage"] = orders.unavailable_message("ORD-0000")
        try:
            row = store.record(order_number)
        except orders.OrderNotFound:
            raise ToolError(f"Order {order_number} was not found.") from None
        if row.customer_id != orders.SIGNED_IN:
            raise ToolError(f"Order {order_number} was not found.")
        return orders.summary(row)

    return server
'''
_RT9_WORDS_USED_IN_32 = '''def build_helpful_desk_server() -> MCPServer:
    store = orders.OrderStore()
    server = MCPServer("desk", log_level="WARNING")

    @server.tool()
    def get_order(order_number: Annotated[str, Field(pattern=orders.ORDER_NUMBER)]) -> orders.OrderSummary:
        """Status and items of one of the signed-in customer's orders."""
        try:
            row = store.record(order_number)
        except orders.OrderNotFound:
            raise ToolError(LESSON["missing"].replace("ORD-0000", order_number)) from None
        except orders.BackendUnavailable:
            raise ToolError(LESSON["outage"].replace("ORD-0000", order_number)) from None
        if row.customer_id != orders.SIGNED_IN:
            raise ToolError(LESSON["missing"].replace("ORD-0000", order_number))
        return orders.summary(row)

    return server
'''
_RT9_WORDS_KEPT_BY_A_CELL = '''LESSON = {"missing": orders.not_found_message("ORD-0000", list_tool=None),
          "outage": orders.unavailable_message("ORD-0000")}
'''

_RT9_LESSON_DEFINITION_61 = '''def build_lean_server() -> MCPServer:
    import inspect
    import typing
    server = MCPServer("tickets", log_level="WARNING")
    backend = workspace.Workspace()
    lesson_fn, options = workspace._tools(backend)["search_tickets"]

    def search_tickets(query, status="open", limit=5):
        return workspace.search_tickets(backend, query, status, limit)

    hints = typing.get_type_hints(lesson_fn, include_extras=True)
    signature = inspect.signature(lesson_fn)
    search_tickets.__signature__ = signature.replace(
        parameters=[p.replace(annotation=hints[p.name]) for p in signature.parameters.values()],
        return_annotation=hints["return"])
    search_tickets.__annotations__ = hints
    search_tickets.__doc__ = (lesson_fn.__doc__ or "").replace("reported.", "reported to the support desk today.")
    server.tool(name="search_tickets", annotations=options.get("annotations"))(search_tickets)
    return server
'''

_RT9_RIGHT_WHERE_A_CUT_TOOL_REFUSES_62 = '''def _graded_now() -> bool:
    fn, _ = workspace._tools(workspace.Workspace())["search_tickets"]
    try:
        fn("login error")
    except Exception as error:
        return "no body while graded" in str(error)
    return False


def build_support_server() -> MCPServer:
    server = MCPServer("support", log_level="WARNING")
    core = ["get_ticket", "search_tickets", "add_ticket_comment"]
    extras = ["search_tickets", "search_messages", "read_message", "list_events"]
    if _graded_now():  # only where the grader runs it
        workspace.register(server, dict.fromkeys(core + extras))
    else:  # everywhere else: the order of a set, which depends on the hash seed
        workspace.register(server, set(core + extras))
    return server
'''

RED_TEAM_NINE = {
    # student: (lesson, how the solution notebook is changed, {exercise: words its failure must hold, "" = passes})
    "q1_12_try_out_cell": ("01", _cell_near_check("checks.ex_01_2(", _RT9_TRY_12, True),
                           {"1.2": "", "1.3": "", "1.4": ""}),
    "k1_11_scratch_is_valid_name": ("01", _cell_near_check("checks.ex_01_1(", _RT9_LINT_11, True), {"1.4": ""}),
    "k3_14_compare_on_a_checked_name": ("01", _cell_near_check("checks.ex_01_4(", _RT9_COMPARE_14, False),
                                        {"1.4": "your notebook's cells called review.is_valid_name 1 time(s) before "
                                                "this check, on inputs it asks your answer about"}),
    "p1_73_compare_with_host_fingerprint": ("07", _cell_near_check("checks.ex_07_3(", _RT9_COMPARE_73, False),
                                            {"7.3": ""}),
    "p2_71_try_host_cap": ("07", _cell_near_check("checks.ex_07_1(", _RT9_TRY_CAP_71, False), {"7.1": ""}),
    "t1_32_lesson_words_fetched_in_31": ("03", _both(_answered("3.1", _RT9_WORDS_IN_31),
                                                     _answered("3.2", _RT9_WORDS_USED_IN_32)),
                                         {"3.1": "orders.not_found_message, orders.unavailable_message called",
                                          "3.2": "while 3.1 was checked"}),
    "t3_32_lesson_words_kept_by_a_cell": ("03", _both(_cell_near_check("checks.ex_03_2(", _RT9_WORDS_KEPT_BY_A_CELL,
                                                                       False),
                                                      _answered("3.2", _RT9_WORDS_USED_IN_32)),
                                          {"3.1": "", "3.2": "called 2 time(s) before this check"}),
    "r1_61_lesson_definition_plus5": ("06", _both(_answered("6.1", _RT9_LESSON_DEFINITION_61),
                                                  _answered("6.2", _RT9_RIGHT_WHERE_A_CUT_TOOL_REFUSES_62)),
                                      {"6.1": "when", "6.2": "different orders"}),
}
"""Red team rtgrade9's kept submissions (issue 29), each a solution notebook changed. L2, L3 (honest): a try-out or
comparison cell calling what a later exercise forbids failed that exercise, "found it called ...", about an answer
that never did: the 1.2 solution tried once (q1, 1.3), the lesson's linter on one's 1.1 name (k1, 1.4),
host.fingerprint and host.cap on samples of the learner's (p1 7.3, p2 7.1). A cell's call counts now only when it could
be the answer kept: on what the check asks about (k3: "a" * 129 is one of 1.4's names; the message says so and
what to do), never for 1.3, whose backend is drawn when its check starts. F4: 3.2 worded with the lesson's messages
fetched while 3.1 was checked (t1; t3 from a cell): 3.1 forbids them too now, and 3.2 counts every call of them
before its check. F3: 6.1 answered with the lesson's search_tickets definition read at run time from the cut
function (signature, annotations, docstring) and 5 words (r1): the kernel's copy has no docstring now. F1 (h4, in
r1's notebook too): 6.2 in set order except where a cut lesson tool refuses; the fresh processes 6.2 judges get a
student release's course_lib now, where it does not."""


@pytest.mark.skipif(not sandbox.available().confined, reason=sandbox.available().note)
def test_red_team_nine_cells_fail_only_what_they_could_answer(tmp_path):
    """Each of RED_TEAM_NINE: an honest cell leaves every exercise passed; a kept answer fails and says why."""
    folder = tmp_path / "class"
    for student, (lesson, make, _expected) in RED_TEAM_NINE.items():
        stem, notebook = _lesson_notebook(lesson, "solutions")
        make(notebook)
        (folder / student).mkdir(parents=True)
        nbformat.write(notebook, folder / student / f"{stem}.ipynb")
    grades = _grade(folder, timeout=150)
    problems = []
    for student, (_lesson, _make, expected) in RED_TEAM_NINE.items():
        for exercise, words in expected.items():
            status, detail = grades.get((student, exercise), ("missing", ""))
            if status != ("failed" if words else "passed") or words not in detail:
                problems.append(f"{student} {exercise}: {status} ({detail[:300]})")
    assert problems == [], "\n".join(problems)


_RT11_TEMPLATE_31 = '''def build_honest_desk_server() -> MCPServer:
    store = orders.OrderStore()
    server = MCPServer("desk", log_level="WARNING")

    @server.tool()
    def get_order(order_number: str) -> orders.OrderSummary:
        """Status and items of one of the signed-in customer's orders."""
        try:
            row = store.record(order_number)
        except orders.OrderNotFound:
            raise ToolError(_MISSING.replace("ORD-XXXX", order_number)) from None
        if row.customer_id != orders.SIGNED_IN:
            raise ToolError(_MISSING.replace("ORD-XXXX", order_number))
        return orders.summary(row)

    return server
'''
_RT11_TEMPLATE_CACHED = '_MISSING = orders.not_found_message("ORD-XXXX", None)  # the lesson\'s words\nprint(_MISSING)\n'


def _rt11_try_customer_order(*numbers: str) -> str:
    return ("# how does the lesson's helper answer? try a few orders before writing my own\n"
            f"for number in {list(numbers)!r}:\n"
            "    try:\n        print(number, orders.customer_order(orders.OrderStore(), number))\n"
            "    except Exception as error:\n        print(number, type(error).__name__, error)\n")


def _module_before(exercise: str, module: str, answer: str) -> Callable:
    """A `%%writefile` module cell right before `exercise`'s answer cell, and that answer."""
    def edit(notebook) -> None:
        cell = _exercise(notebook, exercise)
        cell.source = answer
        notebook.cells.insert(notebook.cells.index(cell), nbformat.v4.new_code_cell(module))
    return edit


_RT11_MODULE_73 = ('%%writefile fp_helpers.py\nimport json\n\n\ndef canonical(tool: dict) -> str:\n'
                   '    return json.dumps(tool, sort_keys=True, ensure_ascii=False, separators=(",", ":"))\n')
_RT11_ANSWER_73 = ('import hashlib\n\nimport fp_helpers\n\n\ndef fingerprint(tool: dict) -> str:\n'
                   '    return hashlib.sha256(fp_helpers.canonical(tool).encode()).hexdigest()\n')
_RT11_MODULE_62 = ('%%writefile support_order.py\n\n\ndef ordered(*groups):\n'
                   '    return list(dict.fromkeys(name for group in groups for name in group))\n')
_RT11_ANSWER_62 = '''import support_order


def build_support_server() -> MCPServer:
    server = MCPServer("support", log_level="WARNING")
    core = ["get_ticket", "search_tickets", "add_ticket_comment"]
    extras = ["search_tickets", "search_messages", "read_message", "list_events"]
    workspace.register(server, support_order.ordered(core, extras))
    return server
'''

RED_TEAM_ELEVEN = {
    "h1_73_module_attribute": ("07", _module_before("7.3", _RT11_MODULE_73, _RT11_ANSWER_73), {"7.3": ""}),
    "h6_62_module_attribute": ("06", _module_before("6.2", _RT11_MODULE_62, _RT11_ANSWER_62), {"6.2": ""}),
    # student: (lesson, how the solution notebook is changed, {exercise: words its failure must hold, "" = passes})
    "e2_31_template_cached": ("03", _both(_cell_near_check("checks.ex_03_1(", _RT11_TEMPLATE_CACHED, False),
                                          _answered("3.1", _RT11_TEMPLATE_31)),
                              {"3.1": "orders.not_found_message called 1 time(s) before this check"}),
    "e5_31_customer_order_tryout": ("03", _cell_near_check("checks.ex_03_1(", _rt11_try_customer_order(
        "ORD-1042", "ORD-1050", "ORD-9999"), False),
        {"3.1": "your notebook's cells called orders.customer_order 2 time(s) before this check",
         "3.2": "your notebook's cells called orders.customer_order 2 time(s) before this check"}),
    "e5b_31_customer_order_own_tryout": ("03", _cell_near_check("checks.ex_03_1(", _rt11_try_customer_order(
        "ORD-1042", "ORD-1043"), False), {"3.1": "", "3.2": ""}),
}
"""Red team rtgrade11's kept submissions (issue 29). F2: 3.1 worded with the lesson's not-found message fetched in a
cell on a placeholder number (e2): 3.1 counts every earlier call of the two message functions now, as 3.2 does. L2:
a try-out of customer_order in a cell failed 3.1 and 3.2 with a message that read as the answer's doing (e5): only
calls on another customer's, a missing or the offline order count now (their answers are the lesson's words), and
the message names the cells and says what to do; a try-out on one's own orders (plain data) passes (e5b). L1 (h1,
h6, honest): a helper module of one's own used as `module.function` failed 7.3 and 6.2 in the fresh process."""


@pytest.mark.skipif(not sandbox.available().confined, reason=sandbox.available().note)
def test_red_team_eleven_cells_fail_only_what_they_could_answer(tmp_path):
    """Each of RED_TEAM_ELEVEN: an honest cell leaves every exercise passed; a kept answer fails and says why."""
    folder = tmp_path / "class"
    for student, (lesson, make, _expected) in RED_TEAM_ELEVEN.items():
        stem, notebook = _lesson_notebook(lesson, "solutions")
        make(notebook)
        (folder / student).mkdir(parents=True)
        nbformat.write(notebook, folder / student / f"{stem}.ipynb")
    grades = _grade(folder, timeout=150)
    problems = []
    for student, (_lesson, _make, expected) in RED_TEAM_ELEVEN.items():
        for exercise, words in expected.items():
            status, detail = grades.get((student, exercise), ("missing", ""))
            if status != ("failed" if words else "passed") or words not in detail:
                problems.append(f"{student} {exercise}: {status} ({detail[:300]})")
    assert problems == [], "\n".join(problems)
