"""`course serve incidents --store PATH|URL` and `COURSE_STORE`: the desk on SQLite or PostgreSQL, the password never
printed, and a store that cannot be used refused in one line (exit 2).

PostgreSQL runs for real (tests/postgres_cluster.py): skipped with one line where it is missing, required in CI.
"""

from __future__ import annotations

import subprocess
import sys

import anyio
import pytest

import postgres_cluster
from course_lib import serving
from course_lib.incident_store import PostgresStore, StoreUnavailable
from incident_helpers import Served, check_notes_once, connect, request_id
from postgres_cluster import cluster  # noqa: F401 - a fixture

NOTE = {"incidentId": "INC-101", "note": "Served from PostgreSQL.", "requestId": request_id("serve")}


def add_note(url: str):
    async def go():
        async with connect(url) as client:
            return await client.call_tool("add_incident_note", NOTE)

    return anyio.run(go)


def course(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    import os

    return subprocess.run([sys.executable, "-m", "course_lib.cli", *args], capture_output=True, text=True,
                          timeout=120, env={**os.environ, **(env or {})})


@pytest.mark.parametrize("how", ["--store", "COURSE_STORE"])
def test_serve_keeps_the_desk_in_postgres_and_never_prints_the_password(cluster, how):
    where = cluster.database()
    flags, env = (("--store", where), None) if how == "--store" else ((), {serving.STORE_ENV: where})
    with Served(*flags, env=env) as served:
        result = add_note(served.url)
        log = served.log
    assert result.is_error is False and result.structured_content["noteId"] == "N2"
    assert check_notes_once(where, {NOTE["requestId"]: ("ana", NOTE["note"])}) == [], "the note is in that database"
    assert f"incidents keeps its data in postgresql://{postgres_cluster.SUPERUSER}:***@/" in log
    assert postgres_cluster.PASSWORD not in log


def test_the_store_flag_wins_over_the_environment(cluster, tmp_path):
    path = tmp_path / "desk.db"
    with Served("--store", str(path), env={serving.STORE_ENV: cluster.database()}) as served:
        add_note(served.url)
    assert check_notes_once(path, {NOTE["requestId"]: ("ana", NOTE["note"])}) == []


@pytest.mark.parametrize("how", ["--store", "COURSE_STORE"])
def test_a_postgres_store_that_refuses_is_one_line_and_exit_2_without_the_password(cluster, how):
    wrong = cluster.url(password="wrong-password-5f2e9c")
    args, env = (("--store", wrong), None) if how == "--store" else ((), {serving.STORE_ENV: wrong})
    done = course("serve", "incidents", *args, env=env)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"course: cannot use the incident store at {cluster.url(password='***')}: ")
    assert "password authentication failed" in done.stderr and "wrong-password-5f2e9c" not in done.stderr


@pytest.mark.parametrize("make", ["a folder", "not a database"])
def test_a_sqlite_store_that_cannot_be_used_is_one_line_and_exit_2(tmp_path, make):
    where = tmp_path / "desk.db"
    where.mkdir() if make == "a folder" else where.write_text("these are not the pages of a database\n" * 50)
    done = course("serve", "incidents", "--store", str(where))
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"course: cannot use {where} as the incident store: ")


def test_course_store_is_ignored_by_a_server_without_a_store(tmp_path):
    done = course("serve", "weather", "--user", "ana", env={serving.STORE_ENV: str(tmp_path / "x.db")})
    assert (done.returncode, done.stderr) == (2, "course: weather does not take --user\n")
    assert not (tmp_path / "x.db").exists()


def test_a_postgres_url_without_psycopg_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "psycopg", None)  # what `import psycopg` meets where it is not installed
    with pytest.raises(Exception) as refused:
        PostgresStore("postgresql://desk@/incidents")
    assert str(refused.value) == 'the PostgreSQL store needs psycopg 3: pip install -e ".[postgres]"'
    assert not isinstance(refused.value, StoreUnavailable)


@pytest.mark.parametrize("required", [False, True])
def test_without_postgres_the_tests_skip_in_one_line_unless_required(tmp_path, required):
    """What a machine without the server binaries sees: one skip reason, or (in CI) a failure that says why."""
    import os
    from pathlib import Path

    (tmp_path / "test_needs_postgres.py").write_text(
        "from postgres_cluster import cluster\n\ndef test_uses_it(cluster):\n    pass\n")
    env = {**os.environ, postgres_cluster.BIN_ENV: str(tmp_path / "no-postgres-here"),
           "PYTHONPATH": str(Path(__file__).parent), "COURSE_REQUIRE_POSTGRES": "1" if required else ""}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "-p", "no:xdist",
                           "--rootdir", str(tmp_path), str(tmp_path)], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120)
    reason = "PostgreSQL server binaries not found (Debian: apt-get install postgresql)"
    if required:
        assert done.returncode == 1 and f"COURSE_REQUIRE_POSTGRES=1 but {reason}" in done.stdout
    else:
        assert done.returncode == 0 and "1 skipped" in done.stdout
        assert [line for line in done.stdout.splitlines() if line.startswith("SKIPPED")] == [
            f"SKIPPED [1] test_needs_postgres.py:3: {reason}"]
