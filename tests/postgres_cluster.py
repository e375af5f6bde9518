"""A throwaway PostgreSQL server for tests: `initdb` in a temporary folder, a Unix socket there, stopped after.

PostgreSQL refuses to run as root, so as root (CI) the server runs as the unprivileged `nobody`
(subprocess's `user=`/`group=`; no TCP, no network, so it works inside `unshare -n`). Where the
server binaries or psycopg are missing, `missing()` says which; tests skip with that line unless
COURSE_REQUIRE_POSTGRES=1 (as in `.ci/run`, which installs both), and then they fail.

Shared by tests/test_incident_store.py, tests/test_incident_serve.py and tests/benchmark.py.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path

import pytest

REQUIRED = os.environ.get("COURSE_REQUIRE_POSTGRES") == "1"
SUPERUSER, PASSWORD = "course", "pg-test-6f1c2a9e"
"""The cluster's one role; its password is checked (scram-sha-256), so tests can see that it is never printed."""
UNPRIVILEGED = "nobody"
WAIT = "600"
"""Seconds pg_ctl may wait for a start or a stop: a shutdown checkpoint on a loaded machine can take minutes."""


BIN_ENV = "COURSE_PG_BIN"
"""A folder holding initdb and pg_ctl, to use instead of the ones found."""


def binaries() -> Path | None:
    """The folder holding initdb and pg_ctl: $COURSE_PG_BIN, Debian's newest /usr/lib/postgresql/N/bin, or PATH's."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(Path(p).parts[-3]))
    pg_ctl = found[-1] if found else shutil.which("pg_ctl")
    if os.environ.get(BIN_ENV):
        pg_ctl = os.path.join(os.environ[BIN_ENV], "pg_ctl")
    return Path(pg_ctl).parent if pg_ctl and (Path(pg_ctl).parent / "initdb").is_file() else None


def missing() -> str | None:
    """Why PostgreSQL tests cannot run here, in one line, or None when they can."""
    if binaries() is None:
        return "PostgreSQL server binaries not found (Debian: apt-get install postgresql)"
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return 'psycopg is not installed (pip install -e ".[postgres]")'
    return None


class Cluster:
    """One PostgreSQL server in a private temporary folder, reached on a Unix socket there.

    `start()`, `stop()` and `restart()` drive it with pg_ctl; `database()` makes a fresh, empty
    database and returns its URL (with the password, as a deployment would pass it).
    """

    def __init__(self):
        self.bin = binaries()
        self.root = Path(tempfile.mkdtemp(prefix="course-pg-"))  # short: a socket path has ~100 characters
        self.data, self.log = self.root / "data", self.root / "server.log"
        self._as = {}
        if os.geteuid() == 0:
            account = pwd.getpwnam(UNPRIVILEGED)
            os.chown(self.root, account.pw_uid, account.pw_gid)
            self._as = {"user": account.pw_uid, "group": account.pw_gid, "extra_groups": []}
        secret = self.root / "password"
        secret.write_text(PASSWORD + "\n")
        if self._as:
            os.chown(secret, self._as["user"], self._as["group"])
        self._run("initdb", "-D", str(self.data), "-U", SUPERUSER, "--auth=scram-sha-256", f"--pwfile={secret}",
                  "-E", "UTF8", "--locale=C")
        secret.unlink()
        self.start()

    def _run(self, tool: str, *args: str) -> None:
        done = subprocess.run([str(self.bin / tool), *args], cwd=self.root, capture_output=True, text=True,
                              env={"PATH": os.environ.get("PATH", ""), "LC_ALL": "C"}, **self._as)
        if done.returncode:
            log = self.log.read_text() if self.log.exists() else ""
            raise RuntimeError(f"{tool} failed: {done.stderr.strip()} {log[-2000:]}")

    def start(self) -> None:
        options = f"-k {self.root} -c listen_addresses='' -c max_connections=300"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "-t", WAIT, "start")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", WAIT, "stop")

    def restart(self) -> None:
        """Stop and start the server: every open connection is cut, committed data stays."""
        self.stop()
        self.start()

    def url(self, database: str = "postgres", password: str | None = PASSWORD) -> str:
        auth = SUPERUSER if password is None else f"{SUPERUSER}:{password}"
        return f"postgresql://{auth}@/{database}?host={self.root}"

    def database(self) -> str:
        """A new empty database's URL."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def close(self) -> None:
        """Stop the server (if it runs) and remove its folder."""
        try:
            self.stop()
        except RuntimeError:
            pass
        shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture(scope="module")
def cluster():
    """A PostgreSQL server for one test module, stopped after it (import this fixture into the module)."""
    reason = missing()
    if reason:
        if REQUIRED:
            pytest.fail(f"COURSE_REQUIRE_POSTGRES=1 but {reason}")
        pytest.skip(reason)
    server = Cluster()
    yield server
    server.close()
