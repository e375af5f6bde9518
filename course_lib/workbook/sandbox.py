"""Where a submission's code runs under `course check` and `course grade`: a confined process.

On Linux with bubblewrap (`bwrap`, Debian's `bubblewrap` package) a submission's kernel gets:
- no network: a fresh network namespace with nothing in it;
- its own PID namespace and session: it sees and signals only its own processes, and they all die with it;
- a file system of read-only system and Python folders plus the `course_lib` package itself: the rest of the
  course (solutions/, kept answers, tests), the other submissions and the grader's files are absent;
- a private home, /tmp and /dev/shm on small size-limited tmpfs mounts, and one run folder for its sockets,
  which is the grader's again once they are made (`Confinement.seal`, when the kernel has a user of its own);
- limits on CPU seconds, address space, open files, processes (threads count) and file size;
- when the grader runs as root, a user id of its own (random, unprivileged), so that the process limit counts
  only its own processes.

Elsewhere (macOS, Windows, Linux without bwrap or inside a container that forbids namespaces, or with
`COURSE_SANDBOX=none`) the kernel is an ordinary child process with a private home and, where the OS has
them, the same resource limits; a root grader (Gradescope's) starts it as an unprivileged user of its own,
and refuses to grade when that user could not run the course's Python (`refuse_root`; `--unsafe-as-root`
overrides). The grading boundary still holds (verdicts are computed only in the grader), but nothing
stops the submission from reading what that user may read or reaching the network. `note()` says which one
a run got, and as which user id.

In every mode each notebook gets a run folder of its own (`run_folder`), which the grader removes with whatever
the kernel left (`clean_up`: its processes, by user id as root or by the run's mark in their environment; its
files in the shared temp folders; the folder itself, without recursion or following a link); `sweep` removes the
run folders of a grader that was killed. The whole sandbox's memory is bounded too (`Limits.sandbox_memory_bytes`,
watched by the kernel: resident memory plus what open memfd files hold plus, under bubblewrap with a root grader,
what the unix sockets of its network namespace hold), not only each process's address space.

Kernel memory the watch does not see, and its bound: socket buffers of the sandbox's loopback TCP/UDP sockets
(the host's global `net.ipv4.tcp_mem`/`udp_mem` caps them) and pipe buffers (64 kB a pipe by default; an
unprivileged user's pipes past `fs.pipe-user-pages-soft`, 64 MB, get one page each); without bubblewrap or a
root grader (no network namespace of its own to read) unix-socket buffers too, bounded only by `processes` x
`open_files` sockets of `net.core.wmem_default` (212,992 bytes, about 233 kB charged) each: 128 x 256 x 233 kB =
7.6 GB, more where a socket raises SO_SNDBUF towards twice `net.core.wmem_max` (red team 7's d01 held 3.13 GB in
13,459 sockets of 14 processes). A cgroup memory limit would charge all of it; this module has none.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import itertools
import os
import random
import re
import secrets
import shutil
import signal
import socket
import stat
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ENV = "COURSE_SANDBOX"
"""Set to `none` to run submissions unconfined (for a machine where bwrap cannot work)."""
HOME = "/home/learner"
RUN_ENV = "INVOCATION_ID"
"""What marks a run's processes when its kernel has no user of its own (a grader that is not root), set in its
environment to `run_mark` of its run folder's name; with a user of its own (root), its processes are found by that
user and nothing is set. The name is the one systemd gives every service, the value a digest, so nothing in the
environment names the grader (red team 8, F5: an answer read COURSE_RUN and behaved only while graded); a process
can still guess it is not on a learner's laptop (README, grading)."""
RUN_PREFIX = "course-run-"


def run_mark(run: str) -> str:
    """The value of `RUN_ENV` for the run whose folder is named `run`: 32 hex digits, as systemd's."""
    return hashlib.sha256(run.encode()).hexdigest()[:32]


def run_user(run: str) -> int | None:
    """The user of its own the run whose folder is named `run` gave its kernel, or None."""
    found = re.fullmatch(rf"{re.escape(RUN_PREFIX)}\d+-(\d+)-\w+", run)
    return int(found.group(1)) or None if found else None


def processes_of(run: str, uid: int | None) -> list[int]:
    """The live processes of a run: its user's when it has one (root), else those carrying its mark."""
    if uid is not None and _is_root():
        return [pid for pid in _pids() if _owner(pid) == uid and not _zombie(pid)]
    wanted = f"{RUN_ENV}={run_mark(run)}".encode()
    return [pid for pid in _pids() if wanted in _environ(pid).split(b"\0")]


@dataclass(frozen=True)
class Limits:
    """Resource limits for one confined process tree."""

    cpu_seconds: int = 300
    memory_bytes: int = 2 << 30
    open_files: int = 256
    """Per process. Grading every solution, the most one process had open was 87 (a kernel, sampled every 0.3 s);
    each open file may be a socket that holds buffers (`resident_bytes`), so the bound is kept near what is used."""
    processes: int = 128
    """Processes and threads of its user together (RLIMIT_NPROC). Grading every solution, one kernel's user ran at
    most 70 (sampled every 0.3 s): the kernel's agent has 16 workers and anyio's thread pool 40."""
    file_bytes: int = 64 << 20
    tmpfs_bytes: int = 128 << 20
    sandbox_memory_bytes: int = 2 << 30
    """Memory of all its processes together (`memory_bytes` bounds each one's address space): resident memory,
    memfd files and unix-socket buffers (`resident_bytes`); the kernel's watcher stops the sandbox when it is over
    (checked every `kernel.WATCH_SECONDS`)."""


@dataclass(frozen=True)
class Sandbox:
    """Which confinement this machine gives a submission, and one line that says so in reports."""

    kind: str
    note: str

    @property
    def confined(self) -> bool:
        return self.kind == "bubblewrap"


_UNCONFINED = ("the submission ran as an ordinary process; verdicts still come only from the grader; its disk use "
               f"is bounded per file ({Limits.file_bytes >> 20} MB, RLIMIT_FSIZE), not in total: its run folder "
               "and home are polled, what it writes in /tmp or /dev/shm is removed after it")
"""Without bubblewrap there is no tmpfs of the run's own and no quota: RLIMIT_FSIZE bounds each file it writes,
nothing bounds how many (the kernel's watcher polls the run folder, `kernel.RUN_FOLDER_BYTES`, which a fast
writer outruns)."""


def available() -> Sandbox:
    """The confinement a submission gets on this machine (bubblewrap is tried once per process)."""
    if os.environ.get(ENV, "").strip().lower() in ("none", "off", "0"):
        return Sandbox("none", f"sandbox off ({ENV}=none): {_UNCONFINED}")
    if not sys.platform.startswith("linux"):
        return Sandbox("none", f"sandbox not available on {sys.platform}: {_UNCONFINED}")
    if shutil.which("bwrap") is None:
        return Sandbox("none", f"sandbox not available: bwrap is not installed (Debian/Ubuntu: apt install "
                               f"bubblewrap); {_UNCONFINED}")
    refused = _bwrap_refuses()
    if refused:
        return Sandbox("none", f"sandbox not available: bubblewrap cannot make namespaces here ({refused}); "
                               f"{_UNCONFINED}")
    return Sandbox("bubblewrap", "sandbox: bubblewrap (no network, own PID namespace, course and other "
                                 "submissions absent, private home, resource limits)")


UIDS = range(200_000, 2_000_000)
"""The user ids a root grader gives submissions: a fresh one for each notebook."""
UNSAFE_ENV = "COURSE_UNSAFE_AS_ROOT"
"""Set (to 1) by `--unsafe-as-root`: a root grader without bubblewrap runs submissions as root."""


def _is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def note() -> str:
    """The line reports print about the sandbox a submission gets here, naming the user id the kernel runs as."""
    found = available()
    if _own_user(found):
        return found.note + (f" (kernel uid: a fresh unprivileged uid from {UIDS.start:,}-{UIDS.stop - 1:,} for "
                             "each notebook)")
    if _is_root():
        return found.note + " (kernel uid: 0, root, because of --unsafe-as-root)"
    if hasattr(os, "getuid"):
        return found.note + f" (kernel uid: {os.getuid()}, the grader's own user)"
    return found.note


def _own_user(found: Sandbox) -> bool:
    """Whether a submission runs as a user of its own: the grader is root and everything the kernel needs is
    reachable for any user (bubblewrap mounts it; without it, its folders must be searchable)."""
    return _is_root() and (found.confined or not _unreachable())


def _unreachable() -> list[str]:
    """What a kernel needs that an unprivileged user could not reach: the course's Python, its packages."""
    needed = [sys.executable, sys.prefix, str(_package()),
              *[entry for entry in sys.path if entry and "site-packages" in entry and Path(entry).is_dir()]]
    return [path for path in dict.fromkeys(needed) if not _reachable(path)]


def refuse_root(unsafe: bool = False) -> None:
    """As root without bubblewrap a submission runs as an unprivileged user of its own, or not at all: a one-line
    `UsageError` when that user could not run the course's Python, unless `unsafe` (`--unsafe-as-root`) says to
    run submissions as root anyway (then `UNSAFE_ENV` is set, which `note()` and the workers read)."""
    from course_lib.errors import UsageError

    found = available()
    if not _is_root() or _own_user(found):
        return
    if unsafe or os.environ.get(UNSAFE_ENV) == "1":
        os.environ[UNSAFE_ENV] = "1"
        return
    blocked = _unreachable()
    raise UsageError(f"refusing to run submissions as root: without bubblewrap they would run as an unprivileged "
                     f"user, who cannot reach {blocked[0]}; install bubblewrap, or install the course where any "
                     "user can read it (e.g. a venv under /opt), or pass --unsafe-as-root")


def new_uid() -> int | None:
    """The user id the next notebook's kernel runs as: a fresh unprivileged one when the grader is root, else None
    (the grader's own user)."""
    return random.choice(UIDS) if _own_user(available()) else None


@functools.lru_cache(maxsize=1)
def _bwrap_refuses() -> str:
    """Why bubblewrap cannot start a sandbox on this machine (a container without namespaces), or ""."""
    probe = [shutil.which("bwrap") or "bwrap", "--unshare-net", "--unshare-pid", "--die-with-parent",
             "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "true"]
    try:
        done = subprocess.run(probe, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as error:
        return type(error).__name__
    return "" if done.returncode == 0 else (done.stderr.strip().splitlines() or ["exit code " + str(done.returncode)])[-1][:160]


def _package() -> Path:
    """The `course_lib` package this process runs."""
    import course_lib

    return Path(course_lib.__file__).resolve().parent


def _read_only_paths() -> list[str]:
    """The system and Python folders a kernel needs, and the `course_lib` package (nothing else of the course)."""
    paths = ["/usr", "/etc", sys.base_prefix, sys.prefix, str(_package())]
    paths += [entry for entry in sys.path if entry and Path(entry).is_dir() and "site-packages" in entry]
    return list(dict.fromkeys(os.path.realpath(path) for path in paths))


def _parents(destinations: list[str]) -> list[str]:
    """`--dir` arguments for every parent of the mount points (bubblewrap would make them 0700 otherwise)."""
    made: list[str] = []
    for destination in destinations:
        for parent in reversed(Path(destination).parents):
            text = str(parent)
            if text != "/" and text not in made and not any(text == d or text.startswith(d + "/")
                                                            for d in destinations if d != destination):
                made.append(text)
    return [argument for folder in made for argument in ("--perms", "0755", "--dir", folder)]


def _reachable(path: str) -> bool:
    """Whether any user may use `path` (every folder on the way searchable, as given and resolved, and the file
    or folder itself executable or searchable by others)."""
    import stat

    try:
        for target in dict.fromkeys((Path(os.path.abspath(path)), Path(os.path.realpath(path)))):
            if not (all(os.stat(folder).st_mode & stat.S_IXOTH for folder in target.parents)
                    and os.stat(target).st_mode & stat.S_IXOTH):
                return False
        return True
    except OSError:
        return False


def _tasks_of(uid: int) -> int:
    """How many tasks (processes and threads) `uid` runs now: what RLIMIT_NPROC counts."""
    count = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        if fields.get("Uid", "").split()[:1] == [str(uid)]:
            count += int(fields.get("Threads", "1").strip() or 1)
    return count


_kernels_package: Path | None = None
"""While a submission is graded (`kernels_package`): the course_lib a confined process of it made without one of its
own gets (a check's fresh processes)."""
RELEASE_BESIDE = "release"
"""The folder beside a kernel's cut course_lib (`runner.kernel_package`) that holds a student release's copy
(`release.copy_package`, the same hint levels), for a check's fresh processes (`kernels_package`)."""


@contextlib.contextmanager
def kernels_package(package: Path | None) -> Iterator[None]:
    """For the block: every `Confinement` made without a `package` of its own (the fresh processes a check starts
    to run the learner's code, `cost._in_fresh_processes`: 6.2's listings, 7.3's fingerprints) gets the course_lib a
    student's release holds, made beside `package`, the kernel's cut one (or `package` itself without it).

    Those processes stand for a learner's own Python: what the learner's code gives there is judged. With the
    kernel's cut copy an answer could tell them from one by what is cut (a lesson tool that refuses, red team
    rtgrade9 F1 h4: a 6.2 server in set order except where search_tickets refused) and behave right only there.
    The release copy holds nothing a student's own lacks, and what such a process finds it can only print into
    its own answer; the kernel, which the rest of the check reads, keeps the cut copy."""
    global _kernels_package
    beside = package.parent / RELEASE_BESIDE / package.name if package is not None else None
    before, _kernels_package = _kernels_package, beside if beside is not None and beside.is_dir() else package
    try:
        yield
    finally:
        _kernels_package = before


def hostname() -> str:
    """The machine name a process in bubblewrap sees (its own UTS namespace): this machine's own, the name a
    learner's kernel started here without the grader would see. A name of the grader's own ("sandbox") told a
    submission it was graded (red team rtgrade9 F1, h1: a 6.2 answer right only there passed)."""
    import socket

    return socket.gethostname()


class Confinement:
    """How to start one confined process tree whose only writable outside folder is `run_dir`."""

    def __init__(self, run_dir: Path, limits: Limits = Limits(), uid: int | None = None,
                 package: Path | None = None):
        self.run_dir, self.limits, self.sandbox = Path(run_dir), limits, available()
        # a copy of course_lib the kernel gets instead of the grader's (hints cut); by default the one of the
        # submission being graded, so that a check's fresh processes see no more of the course than its kernel
        self.package = package if package is not None else _kernels_package
        self.home = self.run_dir / "home"  # used only without bubblewrap, which mounts a tmpfs there instead
        self.uid = (uid or new_uid()) if _own_user(self.sandbox) else None
        if self.uid is None and _is_root() and os.environ.get(UNSAFE_ENV) != "1":
            refuse_root()
        if self.uid is not None:
            os.chown(self.run_dir, self.uid, self.uid)
            if not self.sandbox.confined:
                self.home.mkdir(exist_ok=True)
                os.chown(self.home, self.uid, self.uid)

    def seal(self) -> None:
        """Once the kernel has made its sockets in the run folder: give the folder back to the grader (a kernel
        with a user of its own can then write nothing more there, so the host disk takes nothing of it but its
        log, which RLIMIT_FSIZE bounds). Without a user of its own the run folder stays the kernel's, watched."""
        if self.uid is not None:
            os.chown(self.run_dir, os.geteuid(), os.getegid())
            os.chmod(self.run_dir, 0o755)

    def environment(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        """The whole environment a confined process starts with (nothing of the grader's): the grader's own
        `course_lib` first on its path, so both sides run the same course code."""
        home = HOME if self.sandbox.confined else str(self.home)
        return {"HOME": home, "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin", "LANG": "C.UTF-8",
                "PYTHONPATH": str(self.package.parent if self.package and not self.sandbox.confined
                                  else _package().parent),
                "IPYTHONDIR": f"{home}/.ipython", "MPLCONFIGDIR": f"{home}/.matplotlib",
                "JUPYTER_CONFIG_DIR": f"{home}/.jupyter", "JUPYTER_DATA_DIR": f"{home}/.jupyter-data",
                "JUPYTER_RUNTIME_DIR": f"{home}/.jupyter-runtime", "MALLOC_ARENA_MAX": "2",
                "PYTHONDONTWRITEBYTECODE": "1", **({RUN_ENV: run_mark(self.run_dir.name)} if self.uid is None else {}),
                **(extra or {})}

    def command(self, argv: list[str], env: dict[str, str] | None = None) -> list[str]:
        """`argv` wrapped in bubblewrap (or unchanged without it), with `env` added to its environment."""
        if not self.sandbox.confined:
            return list(argv)
        read_only = _read_only_paths()
        run = os.path.realpath(self.run_dir)
        size = str(self.limits.tmpfs_bytes)
        command = ["bwrap", "--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
                   "--die-with-parent", "--new-session", "--hostname", hostname(), "--clearenv",
                   "--dev", "/dev", "--perms", "01777", "--size", size, "--tmpfs", "/dev/shm", "--proc", "/proc",
                   "--perms", "01777", "--size", size, "--tmpfs", "/tmp",
                   *_parents([*read_only, run, HOME])]
        for path in read_only:
            command += ["--ro-bind", path, path]
        for link in ("/bin", "/lib", "/lib64", "/sbin"):
            if os.path.islink(link):
                command += ["--symlink", os.readlink(link), link]
            else:
                command += ["--ro-bind-try", link, link]
        command += ["--bind", run, run, "--perms", "01777", "--size", size, "--tmpfs", HOME, "--chdir", HOME]
        if self.package is not None:  # the copy in place of the grader's package, at the same path
            command += ["--ro-bind", os.path.realpath(self.package), str(_package())]
        for key, value in self.environment(env).items():
            command += ["--setenv", key, value]
        if self.uid is not None:  # root: drop to an unprivileged user of its own before the submission starts
            command += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", sys.executable, "-c",
                        f"import os, sys; os.setgroups([]); os.setgid({self.uid}); os.setuid({self.uid}); "
                        "os.execv(sys.argv[1], sys.argv[1:])"]
        return command + list(argv)

    def _set_limits(self) -> None:
        """In the child, before exec: the resource limits (inherited by everything it starts)."""
        import resource

        processes = self.limits.processes + (0 if self.uid is not None else _tasks_of(os.getuid()))
        for name, value in (("RLIMIT_CPU", self.limits.cpu_seconds), ("RLIMIT_AS", self.limits.memory_bytes),
                            ("RLIMIT_NOFILE", self.limits.open_files), ("RLIMIT_NPROC", processes),
                            ("RLIMIT_FSIZE", self.limits.file_bytes), ("RLIMIT_CORE", 0)):
            limit = getattr(resource, name, None)
            if limit is None:
                continue
            hard = value + 5 if name == "RLIMIT_CPU" else value  # SIGXCPU first, which reports can name
            try:
                resource.setrlimit(limit, (value, hard))
            except (ValueError, OSError):  # macOS refuses some (RLIMIT_AS); the others still hold
                pass
        os.umask(0o077)  # what it writes outside its run folder (/tmp, /dev/shm) no other user may read
        if self.uid is not None and not self.sandbox.confined:  # no namespaces: at least not root
            os.setgroups([])
            os.setgid(self.uid)
            os.setuid(self.uid)

    def popen(self, argv: list[str], env: dict[str, str] | None = None, **options) -> subprocess.Popen:
        """Start `argv` confined: its own session, the limits, the private environment (plus `env`)."""
        if not self.sandbox.confined:
            self.home.mkdir(parents=True, exist_ok=True)
            options.setdefault("cwd", str(self.home))
        if os.name == "posix":  # its own session: stopping it stops everything it started
            options.update(start_new_session=True, preexec_fn=self._set_limits)
        else:
            options.update(creationflags=getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0))
        environment = None if self.sandbox.confined else self.environment(env)
        if environment is not None and os.name != "posix":
            environment = {**os.environ, **environment}  # Windows needs its system variables
        command = self.command(argv, env)
        if self.sandbox.confined:
            command[0] = shutil.which("bwrap") or command[0]
        return subprocess.Popen(command, env=environment or {}, stdin=subprocess.DEVNULL, **options)


# --- one notebook's run folder, and what is left of a run -------------------------------------------------


def run_folder(uid: int | None = None) -> Path:
    """A new run folder for one notebook in the temp folder, named after this process and the kernel's user, so
    that `sweep()` can remove it (and stop what was left running) once this process is gone."""
    return Path(tempfile.mkdtemp(prefix=f"{RUN_PREFIX}{os.getpid()}-{uid or 0}-"))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def sweep() -> int:
    """Remove the run folders left by graders that were killed (their process is gone), after stopping what
    their kernels left running; how many."""
    pattern = re.compile(rf"{re.escape(RUN_PREFIX)}(\d+)-(\d+)-\w+")
    try:
        entries = list(os.scandir(tempfile.gettempdir()))
    except OSError:
        return 0
    removed = 0
    for entry in entries:
        found = pattern.fullmatch(entry.name)
        if found and entry.is_dir(follow_symlinks=False) and not _alive(int(found.group(1))):
            clean_up(Path(entry.path), int(found.group(2)) or None)
            removed += 1
    return removed


def clean_up(run_dir: Path, uid: int | None) -> None:
    """After a notebook: stop every process it left (all of its user's as root, else those that carry its run's
    mark), remove what its user left in the shared temp folders, then its run folder."""
    stop_leftovers(run_dir.name, uid)
    if uid is not None and not available().confined:  # bubblewrap gives it a private /tmp and /dev
        for shared in dict.fromkeys(("/tmp", "/dev/shm", tempfile.gettempdir())):
            try:
                entries = list(os.scandir(shared))
            except OSError:
                continue
            for entry in entries:
                try:
                    if entry.stat(follow_symlinks=False).st_uid == uid:
                        remove_tree(Path(entry.path))
                except OSError:
                    continue
    remove_tree(run_dir)


def stop_leftovers(mark: str, uid: int | None, patience: float = 10.0) -> None:
    """SIGKILL every process a run left and wait until they are gone: as root, everything its user runs (`kill -1`
    as that user, which reaches exactly that user's processes); otherwise the processes whose environment carries
    the run's mark. Rounds repeat while any is left (one forking as a round came, one slow to die on a loaded
    machine), for at most `patience` seconds."""
    as_root = uid is not None and _is_root()
    deadline = time.monotonic() + patience
    while True:
        if as_root:
            try:
                subprocess.run([shutil.which("kill") or "/bin/kill", "-KILL", "-1"], user=uid, group=uid,
                               extra_groups=[], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, timeout=10)
            except (OSError, subprocess.SubprocessError):
                return
            left = processes_of(mark, uid)
        else:
            left = processes_of(mark, None)
            for pid in left:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
        if not left or time.monotonic() > deadline:
            return
        time.sleep(0.05)


def _owner(pid: int) -> int | None:
    try:
        return os.stat(f"/proc/{pid}").st_uid
    except OSError:
        return None


def _zombie(pid: int) -> bool:
    """Whether `pid` has exited and waits only to be reaped (it runs nothing and holds no memory)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as file:
            return file.read().rpartition(b")")[2].split()[0] in (b"Z", b"X")
    except (OSError, IndexError):
        return True


def _pids() -> list[int]:
    try:
        return [int(name) for name in os.listdir("/proc") if name.isdigit() and int(name) != os.getpid()]
    except OSError:
        return []


def _environ(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/environ", "rb") as file:
            return file.read(1 << 20)
    except OSError:
        return b""


def remove_tree(top: Path) -> None:
    """Remove `top` and all in it, never following a link and never recursing: a folder's contents are moved up
    into `top` one level at a time, so a tree nested thousands deep costs no stack and no long path. Folders
    its owner made unreadable are opened first. Only for a tree this grader made (a run folder)."""
    try:
        if not stat.S_ISDIR(os.lstat(top).st_mode):
            os.unlink(top)
            return
    except OSError:
        return
    token, count, stuck = secrets.token_hex(4), itertools.count(), 0
    while stuck < 3:
        try:
            os.chmod(top, 0o700)
            entries = list(os.scandir(top))
        except OSError:
            break
        if not entries:
            break
        progress = False
        for entry in entries:
            try:
                if not entry.is_dir(follow_symlinks=False):
                    os.unlink(entry.path)
                else:
                    os.chmod(entry.path, 0o700)  # a folder (checked without following): no link is followed
                    for child in list(os.scandir(entry.path)):
                        os.rename(child.path, os.path.join(top, f"~{token}-{next(count)}"))
                    os.rmdir(entry.path)
                progress = True
            except OSError:
                continue
        stuck = 0 if progress else stuck + 1
    try:
        os.rmdir(top)
    except OSError:
        pass


def _rss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm", "rb") as file:
            return int(file.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _descendants(pid: int) -> set[int]:
    """`pid` and every process below it (with bubblewrap: all of its PID namespace), from /proc's children lists."""
    found, stack = set(), [pid]
    while stack and len(found) < 10_000:
        current = stack.pop()
        if current in found:
            continue
        found.add(current)
        try:
            tasks = os.listdir(f"/proc/{current}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{current}/task/{task}/children", "rb") as file:
                    stack.extend(int(child) for child in file.read().split())
            except (OSError, ValueError):
                continue
    return found


def _owned_by(uid: int) -> set[int]:
    found = set()
    for pid in _pids():
        try:
            if os.stat(f"/proc/{pid}").st_uid == uid:
                found.add(pid)
        except OSError:
            continue
    return found


def _memory_files(pids: set[int]) -> int:
    """Bytes held in the memory-only files (memfd_create) the processes have open, each file once: memory that is
    no process's resident memory until it is mapped, and on no size-limited mount."""
    seen, held = set(), 0
    for pid in pids:
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            path = f"/proc/{pid}/fd/{fd}"
            try:
                if not os.readlink(path).startswith("/memfd:"):
                    continue
                found = os.stat(path)
            except OSError:
                continue
            if (found.st_dev, found.st_ino) not in seen:
                seen.add((found.st_dev, found.st_ino))
                held += found.st_blocks * 512
    return held


_UNIX_DIAG_REQUEST = struct.pack("=IHHII", 40, 20, 0x301, 1, 0) + struct.pack(  # SOCK_DIAG_BY_FAMILY, dump
    "=BBHIIIII", socket.AF_UNIX, 0, 0, 0xFFFFFFFF, 0, 0x20, 0xFFFFFFFF, 0xFFFFFFFF)  # every state, UDIAG_SHOW_MEMINFO
_CLONE_NEWNET = 0x40000000


def _network(pid: int) -> int | None:
    """The inode of `pid`'s network namespace, or None."""
    try:
        return os.stat(f"/proc/{pid}/ns/net").st_ino
    except OSError:
        return None


def _unix_socket_bytes(pid: int) -> int:
    """Bytes the unix sockets of `pid`'s network namespace hold (queued data, sent or received, as the kernel
    charges it: SK_MEMINFO's rmem_alloc + wmem_alloc of each socket, by a sock_diag dump in that namespace), the
    sockets in flight in a message (SCM_RIGHTS) and those no process has open included. Kernel memory that no
    process's resident memory shows (red team 7's d01 queued 3.13 GB in 13,459 sockets). 0 where it cannot be read
    (entering another network namespace needs root)."""
    import ctypes
    import threading

    found = [0]

    def dump() -> None:  # in a thread of its own: setns moves only the calling thread
        libc = ctypes.CDLL(None, use_errno=True)
        try:
            own, theirs = os.open("/proc/thread-self/ns/net", os.O_RDONLY), os.open(f"/proc/{pid}/ns/net", os.O_RDONLY)
        except OSError:
            return
        try:
            if libc.setns(theirs, _CLONE_NEWNET) != 0:
                return
            try:
                diag = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 4)  # NETLINK_SOCK_DIAG, bound to theirs
            finally:
                libc.setns(own, _CLONE_NEWNET)
        except OSError:
            return
        finally:
            os.close(own)
            os.close(theirs)
        with diag:
            diag.settimeout(2)
            diag.sendall(_UNIX_DIAG_REQUEST)
            found[0] = _meminfo_total(diag)

    thread = threading.Thread(target=dump, name="course-socket-count", daemon=True)
    thread.start()
    thread.join()
    return found[0]


def _meminfo_total(diag: socket.socket) -> int:
    """Sum rmem_alloc + wmem_alloc of every UNIX_DIAG_MEMINFO in a netlink dump's answers."""
    total = 0
    while True:
        try:
            data = diag.recv(1 << 20)
        except OSError:
            return total
        offset = 0
        while offset + 16 <= len(data):
            length, kind = struct.unpack_from("=IH", data, offset)
            if kind in (2, 3) or length < 16:  # NLMSG_ERROR, NLMSG_DONE
                return total
            at, end = offset + 32, offset + length  # past nlmsghdr and unix_diag_msg
            while at + 4 <= end:
                size, attribute = struct.unpack_from("=HH", data, at)
                if size < 4:
                    break
                if attribute == 5 and size >= 16:  # UNIX_DIAG_MEMINFO: u32 rmem_alloc, rcvbuf, wmem_alloc, ...
                    values = struct.unpack_from("=3I", data, at + 4)
                    total += values[0] + values[2]
                at += (size + 3) & ~3
            offset += (length + 3) & ~3
        if not data:
            return total


def resident_bytes(kernel_pid: int, uid: int | None = None) -> int:
    """Memory of one sandbox's processes together: the resident memory of the kernel's process tree (with
    bubblewrap, all of its PID namespace) and, given `uid` (its own user), of every process of that user wherever
    it went, plus what their open memfd files hold (`_memory_files`) and, in a network namespace of their own
    (bubblewrap's), what its unix sockets hold (`_unix_socket_bytes`). Their temp folders and /dev/shm are
    size-limited tmpfs mounts under bubblewrap (`Limits.tmpfs_bytes`)."""
    pids = _descendants(kernel_pid) | (_owned_by(uid) if uid is not None else set())
    networks = {_network(pid): pid for pid in sorted(pids, reverse=True)}
    sockets = sum(_unix_socket_bytes(pid) for network, pid in networks.items()
                  if network is not None and network != _network(os.getpid()))
    return sum(_rss(pid) for pid in pids) + _memory_files(pids) + sockets
