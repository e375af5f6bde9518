"""A submission's IPython kernel: started confined (`sandbox`), driven cell by cell, watched, stopped.

The kernel talks to the grader over ZMQ `ipc` sockets in its run folder (it has no network; on
Windows, without Unix sockets or a sandbox, over loopback TCP), each message at most
`boundary.MAX_LINE` bytes. Only the error a cell raised is kept from its output: one thread reads IOPub all the
time the kernel runs (also while a check runs in the grader and no cell does), counts what it prints and throws
it away, and stops the kernel once it has printed more than `OUTPUT_BYTES`, or sent one message whose parts together
hold more than `MESSAGE_BYTES` (ZeroMQ would queue up to a thousand messages of `MAX_LINE` each, and a message of
any number of parts, in the grader's memory). A
watcher notices within `WATCH_SECONDS` when the kernel dies (and with what exit code), or when it
fills its run folder past `RUN_FOLDER_BYTES`, and stops it then.
"""

from __future__ import annotations

import itertools
import os
import signal
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from queue import Empty, Full, Queue

from course_lib.errors import CourseError
from course_lib.workbook import boundary, sandbox

WATCH_SECONDS = 0.2
RUN_FOLDER_BYTES = 256 << 20
RUN_FOLDER_FILES = 2000
OUTPUT_BYTES = 64 << 20
"""The most one kernel may print (all IOPub messages of a notebook together: text, images, errors). The lessons'
stored outputs are at most 0.3 MB (lesson 06); a learner's debugging prints may be many times that."""
MESSAGE_BYTES = boundary.MAX_LINE
"""The most one IOPub message may hold, all its parts together, as the grader reads it (ZeroMQ bounds each part to
`boundary.MAX_LINE`, not their number): past it the kernel is stopped. What ZeroMQ holds of a message before its
last part arrives is bounded only by `GRADER_GROWTH_BYTES`."""
KEPT_MESSAGE_BYTES = 1 << 20
"""IOPub messages larger than this are counted and dropped unread (only status and error messages are kept, and
those are small)."""
KEPT_MESSAGES = 10_000
"""At most this many status/error messages wait for a cell to read them; more are dropped."""
GRADER_GROWTH_BYTES = 512 << 20
"""How much the grader's own process may grow while one kernel runs before the kernel is stopped. ZeroMQ keeps a
message of many parts whole until its last part arrives, so IOPub alone cannot bound it (`OUTPUT_BYTES` counts
parts once they are readable); what a kernel legitimately makes the grader hold is far less (the bridge's
`boundary.MAX_IN_FLIGHT`, 64 MB, and one `MAX_LINE` message decoded)."""


@dataclass(frozen=True)
class CellRun:
    """How one cell ended: ok, error (with the exception's name and message), timeout or died."""

    status: str
    ename: str = ""
    evalue: str = ""


class KernelDied(CourseError):
    """The kernel stopped before it could be used."""


def _text(value: object, limit: int = 500) -> str:
    return (value if isinstance(value, str) else "")[:limit]


class Kernel:
    """One confined kernel in `run_dir`; use as a context manager (it is stopped on exit)."""

    def __init__(self, run_dir: Path, limits: sandbox.Limits = sandbox.Limits(), tcp: bool | None = None,
                 uid: int | None = None, package: Path | None = None):
        self.run_dir = Path(run_dir)
        self.tcp = boundary.TCP if tcp is None else tcp  # loopback TCP only where there are no Unix sockets
        self.confinement = sandbox.Confinement(self.run_dir, limits, uid, package)
        self.process = None
        self.client = None
        self.stopped_because = ""
        self._watcher = threading.Thread(target=self._watch, name="course-kernel-watch", daemon=True)
        self._done = threading.Event()
        self._iopub: Queue = Queue(KEPT_MESSAGES)  # the status and error messages `_pump` kept
        self._pump_thread = threading.Thread(target=self._pump, name="course-kernel-iopub", daemon=True)
        self.printed = 0
        self.on_death = lambda reason: None

    # lifecycle

    def start(self, timeout: float = 60) -> None:
        """Start the kernel and wait until it answers; `KernelDied` if it exits or stays silent."""
        import zmq
        from jupyter_client import BlockingKernelClient
        from jupyter_client.connect import write_connection_file

        where = {"transport": "tcp", "ip": "127.0.0.1"} if self.tcp else {"transport": "ipc",
                                                                          "ip": str(self.run_dir / "k")}
        connection, _ = write_connection_file(str(self.run_dir / "kernel.json"), **where)
        os.chmod(connection, 0o644)
        log = open(self.run_dir / "kernel.log", "wb")  # noqa: SIM115 - the kernel writes it until it stops
        self.process = self.confinement.popen([sys.executable, "-m", "ipykernel_launcher", "-f", connection],
                                              stdout=log, stderr=log)
        log.close()
        context = zmq.Context()
        context.setsockopt(zmq.MAXMSGSIZE, boundary.MAX_LINE)  # a bigger message drops the kernel's connection
        context.setsockopt(zmq.RCVHWM, 4)  # few whole messages queued unread (`_pump` reads IOPub as it comes)
        self.client = BlockingKernelClient(connection_file=connection, context=context)
        self.client.load_connection_file()
        self.client.start_channels()
        self._pump_thread.start()
        self._watcher.start()
        deadline = time.monotonic() + timeout
        while not self._answers_on_both_channels():
            self._check_alive()
            if time.monotonic() > deadline:
                self.stop("it did not start")
                raise KernelDied(f"the kernel did not answer within {timeout:g} s") from None
        self.confinement.seal()  # its sockets are made: nothing more for it to write in its run folder
        self._drain_iopub()

    def _answers_on_both_channels(self) -> bool:
        """Ask for the kernel's info once: whether it replied on shell and IOPub has begun to deliver.

        A kernel can answer on shell before its IOPub subscription is up; messages published before then are
        lost (ZeroMQ's late joiner), so a cell run too early never reports idle. jupyter_client waits the same way.
        """
        request = self.client.kernel_info()
        replied = time.monotonic() + 1
        while True:  # replies to earlier requests (a slow start) are passed over
            try:
                reply = self.client.get_shell_msg(timeout=max(0.0, replied - time.monotonic()))
            except Empty:
                return False
            if reply.get("parent_header", {}).get("msg_id") == request:
                break
        try:
            self._iopub.get(timeout=0.2)
        except Empty:
            return False
        return True

    def _check_alive(self) -> None:
        if self.exit_code is not None:
            raise KernelDied(self.death())

    @property
    def exit_code(self) -> int | None:
        """The kernel's exit code once it has stopped (a negative code or 128+N: killed by signal N)."""
        return None if self.process is None else self.process.poll()

    def death(self) -> str:
        """How the kernel ended, in words."""
        if self.stopped_because:
            return f"the kernel was stopped: {self.stopped_because}"
        code = self.exit_code
        if code is not None and code < 0:
            return f"the kernel died (killed by signal {-code}, {signal.Signals(-code).name})"
        if code is not None and code > 128 and code - 128 in signal.valid_signals():
            return f"the kernel died (exit code {code}: killed by signal {signal.Signals(code - 128).name})"
        return f"the kernel died (exit code {code})"

    def stop(self, reason: str = "") -> None:
        """Stop the kernel and everything it started (its sandbox goes with it)."""
        if reason and not self.stopped_because and self.exit_code is None:
            self.stopped_because = reason
        if self.process is not None and self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError, AttributeError):
                self.process.kill()
            try:
                self.process.wait(10)
            except Exception:  # still going after SIGKILL: nothing more this process can do
                pass
        self._done.set()

    def __enter__(self) -> Kernel:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
        if self._pump_thread.is_alive():  # it polls every 0.1 s and ends once stopped; then its socket may close
            self._pump_thread.join()
        if self.client is not None:
            self.client.stop_channels()
            self.client.context.destroy(linger=0)

    def _watch(self) -> None:
        """Notice a death, an overfull run folder or a sandbox over its memory within WATCH_SECONDS."""
        memory = self.confinement.limits.sandbox_memory_bytes
        strays = self.confinement.uid if not self.confinement.sandbox.confined else None  # may leave the tree
        grader = sandbox._rss(os.getpid())
        for tick in itertools.count():
            if self._done.wait(WATCH_SECONDS):
                return
            if self.exit_code is not None:
                self.on_death(self.death())
                return
            if sandbox.resident_bytes(self.process.pid, strays if tick % 5 == 0 else None) > memory:
                self.stop(f"its processes together used more than {memory >> 20} MB of memory")
                self.on_death(self.death())
                return
            if sandbox._rss(os.getpid()) - grader > GRADER_GROWTH_BYTES:
                self.stop(f"it made the grader hold more than {GRADER_GROWTH_BYTES >> 20} MB (what it sent)")
                self.on_death(self.death())
                return
            size, files = _usage(self.run_dir)
            if size > RUN_FOLDER_BYTES or files > RUN_FOLDER_FILES:
                self.stop(f"it wrote more than {RUN_FOLDER_BYTES >> 20} MB or {RUN_FOLDER_FILES} files "
                          "into its run folder")
                self.on_death(self.death())
                return

    # running cells

    def _drain_iopub(self) -> None:
        while True:
            try:
                self._iopub.get_nowait()
            except Empty:
                return

    def _pump(self) -> None:
        """Read IOPub, part by part, until the kernel is stopped: count every byte, keep the small status and error
        messages for `run`, drop the rest at once; stop the kernel once it printed more than OUTPUT_BYTES."""
        import zmq

        socket, session = self.client.iopub_channel.socket, self.client.session
        while not self._done.is_set():
            try:
                if not socket.poll(100):
                    continue
                parts, size, count = [], 0, 0
                while True:
                    part = socket.recv(copy=False)
                    size += len(part)
                    count += 1
                    self.printed += len(part)
                    if size <= KEPT_MESSAGE_BYTES:
                        parts.append(part)
                    elif parts:
                        parts.clear()  # too large to be a status or an error: let go of what was kept of it
                    if self.printed > OUTPUT_BYTES or size > MESSAGE_BYTES or not socket.getsockopt(zmq.RCVMORE):
                        break
            except zmq.ZMQError:  # the socket was closed: the kernel is being stopped
                return
            if self.printed > OUTPUT_BYTES or size > MESSAGE_BYTES:
                self.stop(f"it printed more than {OUTPUT_BYTES >> 20} MB of output" if self.printed > OUTPUT_BYTES
                          else f"it sent one output message of more than {MESSAGE_BYTES >> 20} MB ({count} parts "
                               "read so far)")
                self.on_death(self.death())
                return
            if parts:
                self._keep(session, parts)

    def _keep(self, session, parts: list) -> None:
        """Queue one IOPub message for `run` if it is a status or an error (anything else, or unreadable: dropped)."""
        try:
            _identities, message = session.feed_identities(parts, copy=False)
            found = session.deserialize(message, content=True, copy=False)
        except Exception:  # not a message this session signed or can read: nothing the grader needs
            return
        if found.get("msg_type") in ("status", "error"):
            try:
                self._iopub.put_nowait(found)
            except Full:
                pass

    def run(self, code: str, timeout: float) -> CellRun:
        """Run one cell; only its first error is kept. On a timeout the kernel is interrupted, then stopped."""
        if self.exit_code is not None:
            return CellRun("died")
        message = self.client.execute(code, silent=False, store_history=False, allow_stdin=False,
                                      stop_on_error=False)
        deadline = time.monotonic() + timeout
        error: CellRun | None = None
        idle = replied = False
        while not (idle and replied):
            if self.exit_code is not None or self.stopped_because:
                return CellRun("died")
            if time.monotonic() > deadline:
                self.stop(f"a cell ran longer than {timeout:g} s")
                return CellRun("timeout")
            try:
                found = self._iopub.get(timeout=0.05)
            except Empty:
                found = None
            if found is not None and found.get("parent_header", {}).get("msg_id") == message:
                kind, content = found.get("msg_type"), found.get("content") or {}
                if kind == "error" and error is None:
                    error = CellRun("error", _text(content.get("ename"), 100), _text(content.get("evalue")))
                elif kind == "status" and content.get("execution_state") == "idle":
                    idle = True
            try:
                reply = self.client.get_shell_msg(timeout=0)
            except Empty:
                continue
            if reply.get("parent_header", {}).get("msg_id") == message:
                replied = True
        return error or CellRun("ok")


def _usage(folder: Path) -> tuple[int, int]:
    """Bytes and files under `folder` (counting stops early once either is clearly over its limit)."""
    size = files = 0
    stack = [str(folder)]
    while stack and files <= RUN_FOLDER_FILES:
        try:
            entries = list(os.scandir(stack.pop()))
        except OSError:
            continue
        for entry in entries:
            files += 1
            try:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                elif entry.is_file(follow_symlinks=False):
                    size += entry.stat(follow_symlinks=False).st_size
            except OSError:
                continue
    return size, files
