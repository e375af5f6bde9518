"""Lesson 05's claims about SQLite and PostgreSQL, run against the real databases.

PostgreSQL runs for real (tests/postgres_cluster.py): skipped with one line where it is missing, required in CI.
"""

from __future__ import annotations

import json
import re
import sqlite3
import threading
import time

import pytest
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.incident_store import BUSY, PostgresStore, SqliteStore
from claims_ledger import ROOT, cited_paragraphs, claim
from postgres_cluster import cluster  # noqa: F401 - a fixture

DAY = 86_400.0
PAUSE = 5.0
"""How long the first writer keeps its transaction open: far above the second writer's lock_timeout (0.5 s)."""


def key(n: int) -> str:
    return f"00000000-0000-4000-8000-{n:012d}"


def second_writer_while_first_is_open(url: str, expired_key: bool) -> str:
    """Ana's note on INC-101 pauses inside its transaction; meanwhile Ben's note on INC-103: its outcome."""
    now = [1_000_000.0]
    first = PostgresStore(url, clock=lambda: now[0])
    second = PostgresStore(url, clock=lambda: now[0], lock_timeout=0.5)
    if expired_key:
        first.add_note_once("ben", "INC-103", "An old note.", key(1))
    now[0] += DAY  # that key is now exactly as old as the retention window: the next writer deletes it
    first._pause = PAUSE  # the store's test hook: sleep inside the transaction, before COMMIT
    worker = threading.Thread(target=first.add_note_once, args=("ana", "INC-101", "Paused note.", key(2)))
    worker.start()
    try:
        import psycopg

        with psycopg.connect(url, autocommit=True) as watcher:  # each query a fresh snapshot of the activity
            for _ in range(400):  # wait until the first writer sits in its open transaction
                if watcher.execute("SELECT count(*) FROM pg_stat_activity WHERE state = 'idle in transaction' "
                                   "AND datname = current_database()").fetchone()[0]:
                    break
                time.sleep(0.025)
            else:
                pytest.fail("the first writer never opened its transaction")
        try:
            second.add_note_once("ben", "INC-103", "Another incident.", key(3))
            return "written"
        except ToolError as error:
            return "busy" if str(error) == BUSY else str(error)
    finally:
        worker.join()
        for store in (first, second):
            store.disconnect()


@claim("postgres-writers-to-different-incidents-wait-on-expired-keys")
def test_a_note_on_another_incident_waits_only_when_an_expired_key_is_to_be_deleted(cluster):  # noqa: F811
    (paragraph,) = cited_paragraphs("postgres-writers-to-different-incidents-wait-on-expired-keys")
    seconds = re.search(r"`lock_timeout` \((\d+) s here\)", paragraph).group(1)  # the sentence's number
    # "at least as old": the expired key below is exactly the retention window's age, and is deleted
    assert "every `add_note_once` first deletes the keys at least as old as the retention window" in paragraph
    store = PostgresStore(cluster.database())
    with store._read() as db:  # one of the store's own connections
        assert db.execute("SHOW lock_timeout").fetchone()[0] == f"{seconds}s"
    store.disconnect()
    assert second_writer_while_first_is_open(cluster.database(), expired_key=False) == "written"
    assert second_writer_while_first_is_open(cluster.database(), expired_key=True) == "busy"


@claim("sqlite-begin-immediate-takes-the-write-lock")
def test_begin_immediate_takes_the_one_write_lock_at_once(tmp_path):
    path = tmp_path / "one.db"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN IMMEDIATE")  # no write yet: the lock is taken by BEGIN itself
    other = sqlite3.connect(path, isolation_level=None, timeout=0)
    with pytest.raises(sqlite3.OperationalError, match="database is locked"):
        other.execute("BEGIN IMMEDIATE")
    assert other.execute("SELECT count(*) FROM t").fetchone() == (0,)  # readers are not blocked
    holder.execute("ROLLBACK")
    other.execute("BEGIN IMMEDIATE")
    other.execute("ROLLBACK")
    (paragraph,) = cited_paragraphs("sqlite-begin-immediate-takes-the-write-lock")
    seconds = int(re.search(r"(\d+)-second busy timeout", paragraph).group(1))  # the sentence's number
    assert f"so a second writer retries for up to {seconds} seconds and then fails" in paragraph, paragraph
    store = SqliteStore(tmp_path / "store.db")
    assert store.BEGIN_WRITE.strip() == "BEGIN IMMEDIATE"
    with store._read() as db:  # one of the store's own connections
        assert db.execute("PRAGMA busy_timeout").fetchone() == (seconds * 1000,)
    store.disconnect()

    # No queue: a writer that waits sleeps and tries again, so a freed lock goes to whoever asks first after it
    # is freed, not to the writer that has waited longest. The waiter wins only if it wakes in the moment between
    # COMMIT and the newcomer's BEGIN (a busy machine can stretch that moment), so up to 20 rounds are tried: with
    # a queue the newcomer would lose every one.
    waiter = sqlite3.connect(path, isolation_level=None, timeout=seconds, check_same_thread=False)
    newcomer_first = False
    for _ in range(20):
        holder.execute("BEGIN IMMEDIATE")
        waiting = threading.Thread(target=waiter.execute, args=("BEGIN IMMEDIATE",))
        waiting.start()
        waiting.join(0.3)
        assert waiting.is_alive()  # the waiter is waiting for the lock
        holder.execute("COMMIT")
        try:
            other.execute("BEGIN IMMEDIATE")  # a newcomer with no busy timeout at all
        except sqlite3.OperationalError as error:  # the waiter woke in time this round
            assert "locked" in str(error)
            waiting.join()
            waiter.execute("ROLLBACK")
            continue
        assert waiting.is_alive()  # the newcomer took the freed lock ahead of the writer that waited
        other.execute("ROLLBACK")
        waiting.join()  # and the waiter got it on a later try
        waiter.execute("ROLLBACK")
        newcomer_first = True
        break
    assert newcomer_first
    for db in (holder, other, waiter):
        db.close()


def wait_for(url: str, query: str, what: str) -> list:
    """Poll pg_stat_activity (a fresh snapshot each time) until `query` returns a row; that row."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as watcher:
        for _ in range(400):
            row = watcher.execute(query).fetchone()
            if row:
                return list(row)
            time.sleep(0.025)
    pytest.fail(f"never saw {what}")


@claim("postgres-retry-waits-for-the-first-call")
def test_a_retry_during_the_first_call_waits_on_its_uncommitted_key(cluster):  # noqa: F811
    url = cluster.database()
    call = ("ana", "INC-101", "Rolled back checkout.", key(7))
    first, impatient, patient = PostgresStore(url), PostgresStore(url, lock_timeout=0.5), PostgresStore(url)
    first._pause = PAUSE  # the store's test hook: sleep inside the transaction, before COMMIT
    answers: dict[str, object] = {}
    first_call = threading.Thread(target=lambda: answers.setdefault("first", first.add_note_once(*call)))
    first_call.start()
    retry = None
    try:
        wait_for(url, "SELECT 1 FROM pg_stat_activity WHERE state = 'idle in transaction' "
                      "AND datname = current_database()", "the first call's open transaction")
        with pytest.raises(ToolError) as refused:  # a short lock_timeout: busy, nothing written
            impatient.add_note_once(*call)
        assert str(refused.value) == BUSY
        retry = threading.Thread(target=lambda: answers.setdefault("retry", patient.add_note_once(*call)))
        retry.start()
        waiting = wait_for(url, "SELECT wait_event_type, wait_event, query FROM pg_stat_activity "
                                "WHERE state = 'active' AND wait_event_type = 'Lock' "
                                "AND datname = current_database()", "the retry waiting on a lock")
        assert waiting[:2] == ["Lock", "transactionid"]  # on the first call's transaction ...
        assert waiting[2].startswith("INSERT INTO requests")  # ... at the key's INSERT, not at a row lock
    finally:
        first_call.join()
        if retry is not None:
            retry.join()
        notes = [n.text for n in first.notes("INC-101")]
        for store in (first, impatient, patient):
            store.disconnect()
    assert answers["retry"] == answers["first"]  # the first result, once the first call committed
    assert notes.count("Rolled back checkout.") == 1


@claim("desk-keys-kept-for-the-process-or-a-day")
def test_the_memory_store_keeps_keys_for_its_life_and_the_database_stores_for_a_day(tmp_path):
    from course_lib.incident_store import DAY as STORE_DAY
    from course_lib.servers import incidents

    lesson04, lesson05 = cited_paragraphs("desk-keys-kept-for-the-process-or-a-day")  # in notebook order
    stated = re.search(r"this section's store keeps keys until its process ends, and the database stores below for "
                       r"an? (minute|hour|day|week) by default", lesson05)
    assert stated, lesson05
    also = re.search(r"is idempotent because of its `requestId` while the desk keeps that key \(this in-memory desk: "
                     r"until its process ends; lesson 05's database stores: for an? (minute|hour|day|week) by "
                     r"default\)", " ".join(lesson04.split()))
    assert also and also[1] == stated[1], lesson04  # lesson 04 says the same span
    kept_for = {"minute": 60.0, "hour": 3_600.0, "day": DAY, "week": 7 * DAY}[stated[1]]
    now = [1_000_000.0]
    memory = incidents.Store(clock=lambda: now[0])
    first = memory.add_note_once("ana", "INC-101", "Scaled up.", key(8))
    now[0] += 365 * DAY  # the only limit is the process's life
    assert memory.add_note_once("ana", "INC-101", "Scaled up.", key(8)) == first
    assert STORE_DAY == kept_for
    durable = SqliteStore(tmp_path / "keys.db", clock=lambda: now[0])  # the default retention
    kept = durable.add_note_once("ana", "INC-101", "Scaled up.", key(8))
    now[0] += kept_for - 1
    assert durable.add_note_once("ana", "INC-101", "Scaled up.", key(8)) == kept
    now[0] += 1
    assert durable.add_note_once("ana", "INC-101", "Scaled up.", key(8)).noteId != kept.noteId
    durable.disconnect()


@claim("sqlite-wal-one-host")
def test_the_wal_quote_is_sqlites_documentation_and_the_store_runs_in_wal_mode(tmp_path):
    """Lesson 05 quotes SQLite's documentation on WAL: "All processes using a database must be on the same host
    computer; WAL does not work over a network filesystem". Source: sqlite/wal.txt here, the passage as Debian's
    sqlite3-doc 3.40.1-2+deb12u2 ships it (its header; copied 2026-12-07). The quote applies because the course's
    store really uses WAL, with its shared-memory `-shm` file next to the database while a connection is open."""
    from pathlib import Path

    (paragraph,) = cited_paragraphs("sqlite-wal-one-host")
    words = " ".join(paragraph.split())
    (quote,) = re.findall(r'"([^"]+)"', words)
    header, text = (Path(__file__).parent / "sqlite" / "wal.txt").read_text(encoding="utf-8").split("\n", 1)
    assert quote in " ".join(text.split())
    shipped = re.search(r"sqlite3-doc \S+ \(SQLite (\d+\.\d+\.\d+)\).*copied (\d{4}-\d\d-\d\d)", header)
    assert shipped and f"SQLite {shipped[1]}, copied {shipped[2]}" in words, header
    store = SqliteStore(tmp_path / "store.db")
    with store._read() as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert (tmp_path / "store.db-shm").exists() and (tmp_path / "store.db-wal").exists()
    store.disconnect()


@claim("page-numbers-per-tenant-under-a-table-lock")
def test_pages_are_numbered_per_organization_under_a_lock_on_every_organizations_pages(cluster):  # noqa: F811
    import psycopg

    (paragraph,) = cited_paragraphs("page-numbers-per-tenant-under-a-table-lock")
    row = re.match(r'The (\w+) row \("([^"]+)"\) is per organization only in what it counts', paragraph)
    assert row, paragraph
    # the row the sentence names, in the table lesson 05 prints just above it (header line, then one line per row)
    printed = [line for cell in json.loads((ROOT / "notebooks" / "05_safe_mutation_incidents.ipynb").read_text())["cells"]
               if cell["cell_type"] == "code" for output in cell.get("outputs", [])
               for text in [output.get("text") or output.get("data", {}).get("text/plain", "")]
               if "".join(text).startswith("step ") for line in "".join(text).splitlines()[1:]]
    ordinal = ["first", "second", "third", "fourth", "fifth"].index(row[1])
    assert printed[ordinal].startswith(row[2] + "  ") and printed[ordinal].endswith(PostgresStore.LOCK_PAGES), printed
    stated = re.search(r"Acme's and Globex's first pages are both `(PG-\d+)`\), but `([^`]+)` locks every "
                       r"organization's pages, so on PostgreSQL a page for Globex waits for an Acme page", paragraph)
    assert stated, paragraph
    assert PostgresStore.LOCK_PAGES == stated[2] and SqliteStore.LOCK_PAGES == ""  # SQLite: the write lock alone
    url = cluster.database()
    acme = PostgresStore(url)
    globex = PostgresStore(url, lock_timeout=0.5)
    try:
        with psycopg.connect(url) as holder:  # a transaction that took the page lock, as an Acme page does
            holder.execute(PostgresStore.LOCK_PAGES)
            with pytest.raises(ToolError, match=re.escape(BUSY)):
                globex.page("gil", "search", "Globex search is down.")
            holder.rollback()
        assert [acme.page("ana", "search", "Acme search is slow.").pageId,
                globex.page("gil", "search", "Globex search is down.").pageId] == [stated[1], stated[1]]
    finally:
        acme.disconnect(), globex.disconnect()
