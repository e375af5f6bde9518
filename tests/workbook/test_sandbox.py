"""The sandbox a submission's kernel runs in: what it can reach, see, write and use, probed from inside it."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time

import pytest

from conftest import ROOT
from course_lib.workbook import sandbox

CONFINED = sandbox.available().confined
needs_bwrap = pytest.mark.skipif(not CONFINED, reason=sandbox.available().note)


def inside(tmp_path, code: str, limits: sandbox.Limits = sandbox.Limits(), timeout: float = 60) -> tuple[int, dict]:
    """Run `code` in a confined Python whose run folder is tmp_path/run; its exit code and the JSON it printed."""
    run = tmp_path / "run"
    run.mkdir(exist_ok=True)
    process = sandbox.Confinement(run, limits).popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                                                      stderr=subprocess.PIPE)
    out, err = process.communicate(timeout=timeout)
    lines = out.decode().strip().splitlines()
    return process.returncode, (json.loads(lines[-1]) if lines else {"stderr": err.decode()[-2000:]})


@needs_bwrap
def test_no_network_not_even_the_graders_loopback(tmp_path):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    port = listener.getsockname()[1]
    code = f"""
import json, socket
found = {{}}
for name, address in (("grader's loopback", ("127.0.0.1", {port})), ("internet", ("1.1.1.1", 53))):
    try:
        socket.create_connection(address, timeout=3).close()
        found[name] = "connected"
    except OSError as error:
        found[name] = type(error).__name__
print(json.dumps(found))
"""
    try:
        code_, found = inside(tmp_path, code)
    finally:
        listener.close()
    assert code_ == 0 and "connected" not in found.values(), found


@needs_bwrap
def test_the_course_the_graders_files_and_other_folders_are_absent_or_read_only(tmp_path):
    secret = tmp_path / "other_student" / "01_bad_tool_rewrite.ipynb"
    secret.parent.mkdir()
    secret.write_text("{}")
    code = f"""
import json, os, pathlib
import course_lib
package = pathlib.Path(course_lib.__file__).parent
found = {{
    "solutions": os.path.exists({str(ROOT / "solutions")!r}),
    "kept answers": os.path.exists({str(ROOT / "tests" / "answers")!r}),
    "other student": os.path.exists({str(secret)!r}),
    "course_lib readable": (package / "checks" / "core.py").is_file(),
    "home": os.environ["HOME"], "cwd": os.getcwd(),
}}
for name, target in (("course_lib", package / "x.py"), ("home", pathlib.Path.home() / "x"),
                     ("run folder", pathlib.Path({str(tmp_path / "run")!r}) / "x")):
    try:
        target.write_text("x")
        found[name + " writable"] = True
    except OSError:
        found[name + " writable"] = False
print(json.dumps(found))
"""
    _, found = inside(tmp_path, code)
    assert found == {"solutions": False, "kept answers": False, "other student": False,
                     "course_lib readable": True, "home": sandbox.HOME, "cwd": sandbox.HOME,
                     "course_lib writable": False, "home writable": True, "run folder writable": True}, found


@needs_bwrap
def test_its_own_processes_user_and_environment_only(tmp_path, monkeypatch):
    monkeypatch.setenv("COURSE_TEST_SECRET", "instructor-token")
    code = """
import json, os, signal
try:
    os.kill(1, 0)
    reach_init = "signalled"
except OSError as error:
    reach_init = type(error).__name__
print(json.dumps({"uid": os.getuid(), "pids": sorted(int(p) for p in os.listdir("/proc") if p.isdigit()),
                  "secret": os.environ.get("COURSE_TEST_SECRET"), "init": reach_init,
                  "variables": sorted(os.environ)}))
"""
    _, found = inside(tmp_path, code)
    assert found["secret"] is None and "COURSE_TEST_SECRET" not in found["variables"]
    assert len(found["pids"]) <= 3 and max(found["pids"]) < 10, found["pids"]  # its own PID namespace
    if os.geteuid() == 0:
        assert found["uid"] != 0 and found["init"] == "PermissionError", found


@needs_bwrap
def test_limits_hold_inside(tmp_path):
    limits = sandbox.Limits(cpu_seconds=30, memory_bytes=1 << 30, open_files=64, processes=32, file_bytes=1 << 20,
                            tmpfs_bytes=8 << 20)
    code = """
import json, os, resource, tempfile, time
found = {name: resource.getrlimit(getattr(resource, name))[0]
         for name in ("RLIMIT_CPU", "RLIMIT_AS", "RLIMIT_NOFILE", "RLIMIT_FSIZE")}
try:
    bytearray(2 << 30)
    found["memory"] = "allocated"
except MemoryError:
    found["memory"] = "MemoryError"
try:
    with open("big", "wb") as out:
        out.write(b"x" * (2 << 20))
    found["file"] = "written"
except OSError as error:
    found["file"] = error.errno
children = []
try:
    for _ in range(200):
        pid = os.fork()
        if pid == 0:
            time.sleep(30)
            os._exit(0)
        children.append(pid)
except OSError:
    pass
for pid in children:
    os.kill(pid, 9)
found["children"] = len(children)
try:
    for n in range(10):
        with open(os.path.join(tempfile.gettempdir(), f"fill{n}"), "wb") as out:
            out.write(b"x" * (1 << 20))
    found["tmpfs"] = "filled"
except OSError as error:
    found["tmpfs"] = error.errno
print(json.dumps(found))
"""
    _, found = inside(tmp_path, code, limits)
    import errno

    assert (found["RLIMIT_CPU"], found["RLIMIT_AS"], found["RLIMIT_NOFILE"], found["RLIMIT_FSIZE"]) == (
        30, 1 << 30, 64, 1 << 20)
    assert found["memory"] == "MemoryError" and found["file"] == errno.EFBIG and found["tmpfs"] == errno.ENOSPC
    assert 0 < found["children"] < 32, found["children"]


@needs_bwrap
def test_cpu_seconds_end_a_busy_loop_and_say_by_which_signal(tmp_path):
    from course_lib.workbook import kernel

    started = time.monotonic()
    code, _ = inside(tmp_path, "while True: pass", sandbox.Limits(cpu_seconds=1))
    assert time.monotonic() - started < 20
    running = kernel.Kernel(tmp_path / "run")  # only to word the exit code the way reports do
    running.process = subprocess.Popen([sys.executable, "-c", f"import os; os._exit({code})"])
    running.process.wait()
    assert "SIGXCPU" in running.death(), (code, running.death())


def test_without_bubblewrap_the_note_says_so_and_the_command_is_plain(tmp_path, monkeypatch):
    monkeypatch.setenv(sandbox.ENV, "none")
    monkeypatch.setenv(sandbox.UNSAFE_ENV, "1")  # a root grader whose Python no other user may reach: runs as root
    found = sandbox.available()
    assert not found.confined and found.note.startswith("sandbox off") and "only from the grader" in found.note
    confinement = sandbox.Confinement(tmp_path)
    assert confinement.command(["python", "-c", "pass"]) == ["python", "-c", "pass"]
    process = confinement.popen([sys.executable, "-c", "import os; print(os.environ['HOME'])"],
                                stdout=subprocess.PIPE)
    assert process.communicate(timeout=30)[0].decode().strip() == str(tmp_path / "home")


@pytest.mark.parametrize("attempt", range(3))
def test_the_first_cell_run_right_after_start_finishes(tmp_path, attempt):
    """A kernel can answer on shell before its IOPub is connected; a cell run then must still report idle."""
    from course_lib.workbook import kernel

    with kernel.Kernel(tmp_path) as running:
        running.start(60)
        assert running.run("import sys; print(sys.version)", 30).status == "ok"


FORKER = "for i in $(seq 30); do sleep 600 & done; while true; do sleep 600 & sleep 0.02; done"  # forks on


def _left(mark: str, uid: int | None) -> list[int]:
    wanted = f"{sandbox.RUN_ENV}={sandbox.run_mark(mark)}".encode()
    return [pid for pid in sandbox._pids() if not sandbox._zombie(pid)
            and (wanted in sandbox._environ(pid).split(b"\0") or (uid is not None and sandbox._owner(pid) == uid))]


@pytest.mark.parametrize("as_user", [False, True], ids=["by-mark", "by-user"])
def test_a_runs_leftovers_are_gone_when_the_stop_returns(as_user):
    """stop_leftovers returns only once nothing of the run is left, not after a fixed number of rounds: CI once
    found a process of the cheat corpus still there right after grading (a loaded machine, a slow death)."""
    if as_user and os.geteuid() != 0:
        pytest.skip("stopping by user needs root")
    mark = f"{sandbox.RUN_PREFIX}0-0-test{os.getpid()}"
    uid = sandbox.UIDS.start + 7 if as_user else None
    env = dict(os.environ, **{sandbox.RUN_ENV: sandbox.run_mark(mark)})
    started = subprocess.Popen(["/bin/sh", "-c", FORKER], env=env, cwd="/", user=uid, group=uid,
                               extra_groups=[] if uid is not None else None, start_new_session=True)
    try:
        for _ in range(200):  # until its 30 children exist
            if len(_left(mark, uid)) > 30:
                break
            time.sleep(0.05)
        assert len(_left(mark, uid)) > 30
        sandbox.stop_leftovers(mark, uid)
        assert _left(mark, uid) == []
    finally:
        started.kill()
        started.wait()


def test_a_confined_environment_names_nothing_of_the_grader(tmp_path):
    """Red team 8 (F5): every confined process had COURSE_RUN=course-run-..., so a 6.2 answer listed its tools in
    set order unless it was set. With a user of its own (a root grader) the run is found by that user and no mark is
    set; without one the mark is systemd's variable with a digest; nothing but the install's paths says course or grader."""
    confinement = sandbox.Confinement(tmp_path)
    env = confinement.environment()
    told = [f"{key}={value}" for key, value in env.items()
            if key not in ("PATH", "PYTHONPATH") and any(word in f"{key}={value}".lower() for word in ("course", "grade"))]
    assert told == []
    assert (sandbox.RUN_ENV in env) == (confinement.uid is None)
    assert len(sandbox.run_mark(tmp_path.name)) == 32 and sandbox.run_user(f"{sandbox.RUN_PREFIX}1-205000-x1") == 205000


@needs_bwrap
def test_a_confined_process_sees_this_machines_name_not_one_of_the_graders(tmp_path):
    """Red team rtgrade9 F1, h1: the kernel's host name was "sandbox", so a 6.2 answer could order its tools right
    only where the grader runs it. A confined process sees the machine's own name, as a kernel started here
    without the grader does."""
    import socket

    _, found = inside(tmp_path, "import json, socket; print(json.dumps({'host': socket.gethostname()}))")
    assert found["host"] == socket.gethostname() and found["host"] != "sandbox", found
