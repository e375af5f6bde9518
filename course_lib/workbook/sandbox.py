"""Where a submission's code runs under `course check` and `course grade`: a confined process.

On Linux with bubblewrap (`bwrap`, Debian's `bubblewrap` package) a submission's kernel gets:
- no network: a fresh network namespace with nothing in it;
- its own PID namespace and session: it sees and signals only its own processes, and they all die with it;
- a file system of read-only system and Python folders plus the `course_lib` package itself: the rest of the
  course (solutions/, kept answers, tests), the other submissions and the grader's files are absent;
- a private home and /tmp on small size-limited tmpfs mounts, and one read-write run folder for its sockets;
- limits on CPU seconds, address space, open files, processes (threads count) and file size;
- when the grader runs as root, a user id of its own (random, unprivileged), so that the process limit counts
  only its own processes.

Elsewhere (macOS, Windows, Linux without bwrap or inside a container that forbids namespaces, or with
`COURSE_SANDBOX=none`) the kernel is an ordinary child process with a private home and, where the OS has
them, the same resource limits; a root grader (Gradescope's) still starts it as an unprivileged user of its
own when it can. The grading boundary still holds (verdicts are computed only in the grader), but nothing
stops the submission from reading what that user may read or reaching the network. `note()` says which one
a run got.
"""

from __future__ import annotations

import functools
import os
import random
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ENV = "COURSE_SANDBOX"
"""Set to `none` to run submissions unconfined (for a machine where bwrap cannot work)."""
HOME = "/home/learner"


@dataclass(frozen=True)
class Limits:
    """Resource limits for one confined process tree."""

    cpu_seconds: int = 300
    memory_bytes: int = 2 << 30
    open_files: int = 1024
    processes: int = 256
    file_bytes: int = 64 << 20
    tmpfs_bytes: int = 128 << 20


@dataclass(frozen=True)
class Sandbox:
    """Which confinement this machine gives a submission, and one line that says so in reports."""

    kind: str
    note: str

    @property
    def confined(self) -> bool:
        return self.kind == "bubblewrap"


_UNCONFINED = "the submission ran as an ordinary process; verdicts still come only from the grader"


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


def note() -> str:
    """The line reports print about the sandbox a submission gets here."""
    found = available()
    if _own_user(found) and not found.confined:
        return found.note + " (as an unprivileged user of its own)"
    return found.note


def _own_user(found: Sandbox) -> bool:
    """Whether a submission runs as a user of its own: the grader is root and the submission's Python is
    reachable for any user (bubblewrap mounts it; without it, its folders must be searchable)."""
    root = hasattr(os, "geteuid") and os.geteuid() == 0
    return root and (found.confined or _reachable(sys.executable))


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
    """Whether any user may run `path` (every folder on the way searchable, the file executable by others)."""
    import stat

    target = Path(os.path.realpath(path))
    try:
        return all(os.stat(folder).st_mode & stat.S_IXOTH for folder in target.parents) and \
            bool(os.stat(target).st_mode & stat.S_IXOTH)
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


class Confinement:
    """How to start one confined process tree whose only writable outside folder is `run_dir`."""

    def __init__(self, run_dir: Path, limits: Limits = Limits()):
        self.run_dir, self.limits, self.sandbox = Path(run_dir), limits, available()
        self.home = self.run_dir / "home"  # used only without bubblewrap, which mounts a tmpfs there instead
        self.uid = random.randrange(200_000, 2_000_000) if _own_user(self.sandbox) else None
        if self.uid is not None:
            os.chown(self.run_dir, self.uid, self.uid)
            if not self.sandbox.confined:
                self.home.mkdir(exist_ok=True)
                os.chown(self.home, self.uid, self.uid)

    def environment(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        """The whole environment a confined process starts with (nothing of the grader's): the grader's own
        `course_lib` first on its path, so both sides run the same course code."""
        home = HOME if self.sandbox.confined else str(self.home)
        return {"HOME": home, "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin", "LANG": "C.UTF-8",
                "PYTHONPATH": str(_package().parent),
                "IPYTHONDIR": f"{home}/.ipython", "MPLCONFIGDIR": f"{home}/.matplotlib",
                "JUPYTER_CONFIG_DIR": f"{home}/.jupyter", "JUPYTER_DATA_DIR": f"{home}/.jupyter-data",
                "JUPYTER_RUNTIME_DIR": f"{home}/.jupyter-runtime", "MALLOC_ARENA_MAX": "2",
                "PYTHONDONTWRITEBYTECODE": "1", **(extra or {})}

    def command(self, argv: list[str], env: dict[str, str] | None = None) -> list[str]:
        """`argv` wrapped in bubblewrap (or unchanged without it), with `env` added to its environment."""
        if not self.sandbox.confined:
            return list(argv)
        read_only = _read_only_paths()
        run = os.path.realpath(self.run_dir)
        size = str(self.limits.tmpfs_bytes)
        command = ["bwrap", "--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
                   "--die-with-parent", "--new-session", "--hostname", "sandbox", "--clearenv",
                   "--dev", "/dev", "--proc", "/proc",
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
