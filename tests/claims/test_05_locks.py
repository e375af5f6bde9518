"""Lesson 05's claims about who waits for whom, and what a cut-off call is told: the in-memory store's one lock, a
retry that arrives while the first call still holds SQLite's write lock, and a PostgreSQL call whose transaction a
database shutdown ends. Real stores, real SQLite files, a real PostgreSQL (tests/postgres_cluster.py), real threads."""

from __future__ import annotations

import sqlite3
import threading

import pytest
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.incident_store import BUSY, UNREACHABLE, PostgresStore, SqliteStore
from course_lib.servers import incidents
from claims_ledger import cited_paragraphs, claim
from postgres_cluster import cluster  # noqa: F401 - a fixture

KEY = "6a1f0c3e-9b2d-4e8f-a7c5-3d1e0f9b8a24"


class NoLock:
    """A lock that locks nothing: the store without its one step."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        return None


def two_retries_at_once(unlocked: bool) -> list[str]:
    """Two copies of one note call on the lesson's in-memory store, in two threads; the notes it then holds.

    Each write waits for the other call to reach its write too: both get there only when neither call's check
    found the other's key. With the lock the other call never gets there (the wait gives up after 2 s); without
    it, both always do, so that wait has no time limit a slow machine could run into.
    """
    both_writing = threading.Barrier(2, timeout=None if unlocked else 2)

    class Store(incidents.Store):
        def append_note(self, user, incident_id, text):
            try:
                both_writing.wait()
            except threading.BrokenBarrierError:  # the other call is held at the lock: it never writes
                pass
            return super().append_note(user, incident_id, text)

    store = Store()
    if unlocked:
        store._lock = NoLock()
    calls = [threading.Thread(target=store.add_note_once, args=("ana", "INC-103", "Restarted the indexer.", KEY))
             for _ in range(2)]
    for call in calls:
        call.start()
    for call in calls:
        call.join()
    return [note.text for note in store.notes("INC-103")]


@claim("memory-store-check-and-write-under-one-lock")
def test_the_lesson_store_writes_once_and_without_its_lock_two_retries_race_past_the_check():
    seeded = [note.text for note in incidents.Store().notes("INC-103")]
    assert two_retries_at_once(unlocked=False) == [*seeded, "Restarted the indexer."]
    assert two_retries_at_once(unlocked=True) == [*seeded, "Restarted the indexer.", "Restarted the indexer."]


def write_lock_taken(path) -> bool:
    """True when another connection holds the file's write lock (a probe that takes it gives it back at once)."""
    probe = sqlite3.connect(path, isolation_level=None, timeout=0)
    try:
        probe.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as error:
        assert "locked" in str(error)
        return True
    else:
        probe.execute("ROLLBACK")
        return False
    finally:
        probe.close()


@claim("sqlite-retry-waits-for-the-first-call")
def test_a_sqlite_retry_during_the_first_call_waits_for_its_write_lock_and_gets_the_first_result(tmp_path):
    path = tmp_path / "incidents.db"
    call = ("ana", "INC-101", "Rolled back checkout.", KEY)
    first, impatient, patient = SqliteStore(path), SqliteStore(path, busy_timeout=0.2), SqliteStore(path)
    first._pause = 5.0  # the store's test hook: sleep inside the transaction, before COMMIT
    answers: dict[str, object] = {}
    first_call = threading.Thread(target=lambda: answers.setdefault("first", first.add_note_once(*call)))
    first_call.start()
    try:
        for _ in range(400):  # until the first call holds the write lock (BEGIN IMMEDIATE)
            if write_lock_taken(path):
                break
            threading.Event().wait(0.005)
        else:
            pytest.fail("the first call never took the write lock")
        with pytest.raises(ToolError) as refused:  # a short busy timeout: refused, nothing written
            impatient.add_note_once(*call)
        assert str(refused.value) == BUSY
        assert first_call.is_alive()  # the first call still holds the lock ...
        answers["retry"] = patient.add_note_once(*call)  # ... and the retry waits for it
    finally:
        first_call.join()
    assert answers["retry"] == answers["first"]  # the first result
    assert [note.text for note in patient.notes("INC-101")].count("Rolled back checkout.") == 1
    for store in (first, impatient, patient):
        store.disconnect()


@claim("postgres-call-cut-off-by-a-restart-is-refused-with-retry")
def test_a_postgres_call_cut_off_inside_its_transaction_is_refused_with_retry_and_the_retry_writes_once(cluster):  # noqa: F811
    from test_05_stores import wait_for

    url = cluster.database()
    call = ("ana", "INC-101", "Rolled back checkout.", KEY)
    first = PostgresStore(url)
    first._pause = 5.0  # the store's test hook: sleep inside the transaction, before COMMIT
    outcome: dict[str, object] = {}

    def first_call() -> None:
        try:
            outcome["first"] = first.add_note_once(*call)
        except ToolError as error:
            outcome["first"] = str(error)

    cut_off = threading.Thread(target=first_call)
    cut_off.start()
    try:
        wait_for(url, "SELECT 1 FROM pg_stat_activity WHERE state = 'idle in transaction' "
                      "AND datname = current_database()", "the first call's open transaction")
        cluster.stop()  # a fast shutdown: every session ends, open transactions roll back
    finally:
        cut_off.join()
        cluster.start()
    assert outcome["first"] == UNREACHABLE and "Retry" in UNREACHABLE  # refused, told to retry
    retry = first.add_note_once(*call)  # the same store: its dead connections are replaced
    assert retry.noteId == "N2"
    assert first.add_note_once(*call) == retry
    assert [note.text for note in first.notes("INC-101")].count("Rolled back checkout.") == 1
    # the paragraph's second half: connections that went stale while idle are replaced before the next call
    cluster.restart()  # no call running: every connection the store keeps idle is now dead
    later = first.add_note_once("ana", "INC-101", "After an idle restart.", "key-after-idle-restart")
    assert later.noteId == "N3", later
    first.disconnect()
    (paragraph,) = cited_paragraphs("postgres-call-cut-off-by-a-restart-is-refused-with-retry")
    assert "connections that went stale while idle are replaced before the next call" in " ".join(paragraph.split())
