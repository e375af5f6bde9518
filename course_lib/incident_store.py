"""The incident backend behind one interface: lesson 05's in-memory store, and a durable SQLite store.

The in-memory `incidents.Store` proves one note per requestId with a Python lock, which does
not cross processes or restarts. `SqliteStore` keeps the same methods and answers in one
database file (standard-library sqlite3, WAL) that several server processes may share:

* a note and its idempotency record are written in one transaction;
* `UNIQUE (caller, request_id)` does the work the lock did: the first call inserts the key,
  a retry's insert does nothing and it reads the first result back; writers in different
  processes are serialized by the database (`BEGIN IMMEDIATE`), not by Python;
* keys expire after `retention` seconds, measured with an injectable `clock`.

Test hook: the environment variable `COURSE_SQLITE_PAUSE_IN_WRITE` (seconds), read only here,
pauses inside each note's transaction before the commit, so a test can kill a server mid-write.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Protocol, runtime_checkable

from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import incidents
from course_lib.servers.incidents import (ClosePreview, Incident, IncidentList, IncidentSummary, Note, NoteAdded,
                                          ONCALL, Page, Record)

PAUSE_ENV = "COURSE_SQLITE_PAUSE_IN_WRITE"
DAY = 24 * 3600.0

SCHEMA = """
CREATE TABLE IF NOT EXISTS incidents (
    incident_id TEXT PRIMARY KEY, number INTEGER NOT NULL, tenant TEXT NOT NULL, title TEXT NOT NULL,
    service TEXT NOT NULL, severity TEXT NOT NULL, status TEXT NOT NULL, restricted_to TEXT,
    version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS notes (
    incident_id TEXT NOT NULL REFERENCES incidents, seq INTEGER NOT NULL, author TEXT NOT NULL,
    text TEXT NOT NULL, PRIMARY KEY (incident_id, seq));
CREATE TABLE IF NOT EXISTS requests (
    caller TEXT NOT NULL, request_id TEXT NOT NULL, incident_id TEXT NOT NULL, text TEXT NOT NULL,
    note_id TEXT, created_at REAL NOT NULL, UNIQUE (caller, request_id));
CREATE INDEX IF NOT EXISTS requests_by_age ON requests (created_at);
CREATE TABLE IF NOT EXISTS previews (
    token TEXT PRIMARY KEY, caller TEXT NOT NULL, incident_id TEXT NOT NULL, resolution TEXT NOT NULL,
    version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS pages (
    tenant TEXT NOT NULL, number INTEGER NOT NULL, service TEXT NOT NULL, oncall TEXT NOT NULL,
    message TEXT NOT NULL, PRIMARY KEY (tenant, number));
"""

BUSY = ("The incident store is busy, so nothing was changed. Retry the same call with the same "
        "requestId in a few seconds.")


@runtime_checkable
class IncidentStore(Protocol):
    """What the incident server needs from a backend; every method takes the caller and authorizes it."""

    def user(self, name: str) -> incidents.User: ...
    def get(self, user: str, incident_id: str) -> Incident: ...
    def search(self, user: str, query: str = "", include_resolved: bool = False, limit: int = 10) -> IncidentList: ...
    def notes(self, incident_id: str) -> list[Note]: ...
    def add_note_once(self, user: str, incident_id: str, text: str, request_id: uuid.UUID | str) -> NoteAdded: ...
    def preview_close(self, user: str, incident_id: str, resolution: str) -> ClosePreview: ...
    def close(self, user: str, incident_id: str, resolution: str, preview_token: str) -> Incident: ...
    def page(self, user: str, service: str, message: str) -> Page: ...
    def pages(self, tenant: str) -> list[Page]: ...


class SqliteStore:
    """The incident backend in one SQLite file; safe across threads, processes and restarts."""

    user = incidents.Store.user
    can_read = incidents.Store.can_read

    def __init__(self, path: str | os.PathLike, retention: float = DAY, clock: Callable[[], float] = time.time,
                 busy_timeout: float = 30.0):
        self.path, self.retention, self.clock, self.busy_timeout = Path(path), retention, clock, busy_timeout
        self._pause = float(os.environ.get(PAUSE_ENV) or 0)
        self._local, self._opened, self._opened_lock = threading.local(), [], threading.Lock()
        db = self._connection()  # each statement below is atomic and idempotent
        db.execute("PRAGMA journal_mode=WAL")
        db.executescript(SCHEMA)
        self._seed()

    # connections and transactions

    def _connection(self) -> sqlite3.Connection:
        """This thread's connection, opened on first use (a connection belongs to one thread at a time)."""
        db = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=self.busy_timeout, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA synchronous=FULL")
            self._local.db = db
            with self._opened_lock:  # bookkeeping for close(); writes are serialized by the database
                self._opened.append(db)
        return db

    def disconnect(self) -> None:
        """Close every connection this store opened (`close` is closing an incident)."""
        with self._opened_lock:
            for db in self._opened:
                db.close()
            self._opened.clear()
        self._local = threading.local()

    @contextmanager
    def _transaction(self, begin: str) -> Iterator[sqlite3.Connection]:
        """One transaction; rolled back on any error, a busy database turned into a retryable ToolError."""
        db = self._connection()
        try:
            db.execute(begin)
            yield db
            db.execute("COMMIT")
        except sqlite3.OperationalError as error:
            if db.in_transaction:
                db.execute("ROLLBACK")
            if "locked" in str(error) or "busy" in str(error):
                raise ToolError(BUSY) from None
            raise
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    def _write(self):
        """A write transaction: it takes the database's write lock first, so writers queue."""
        return self._transaction("BEGIN IMMEDIATE")

    def _read(self):
        """A read transaction: one consistent snapshot."""
        return self._transaction("BEGIN")

    def _seed(self) -> None:
        with self._write() as db:
            if db.execute("SELECT COUNT(*) FROM incidents").fetchone()[0]:
                return
            for r in incidents._seed().values():
                db.execute("INSERT INTO incidents VALUES (?,?,?,?,?,?,?,?,?)",
                           (r.incident_id, incidents._id_number(r.incident_id), r.tenant, r.title, r.service,
                            r.severity, r.status, r.restricted_to, r.version))
                for seq, note in enumerate(r.notes, 1):
                    db.execute("INSERT INTO notes VALUES (?,?,?,?)", (r.incident_id, seq, note.author, note.text))

    # reading and authorization

    @staticmethod
    def _record(db: sqlite3.Connection, incident_id: str, notes: int | None = None) -> Record | None:
        """The record with all its notes, or only the `notes` most recent ones."""
        row = db.execute("SELECT incident_id, tenant, title, service, severity, status, restricted_to, version "
                         "FROM incidents WHERE incident_id = ?", (incident_id,)).fetchone()
        if row is None:
            return None
        record = Record(*row[:7], version=row[7])
        rows = db.execute("SELECT seq, author, text FROM notes WHERE incident_id = ? ORDER BY seq DESC LIMIT ?",
                          (incident_id, -1 if notes is None else notes)).fetchall()
        record.notes = [Note(noteId=f"N{seq}", author=author, text=text) for seq, author, text in reversed(rows)]
        return record

    def _visible(self, db: sqlite3.Connection, user: str, incident_id: str, notes: int | None = None) -> Record:
        record = self._record(db, incident_id, notes)
        if record is None or not self.can_read(user, record):
            raise incidents.not_found(incident_id)
        return record

    def lookup(self, incident_id: str) -> Record | None:
        """The raw record for an ID, with no authorization at all (for lessons and tests)."""
        with self._read() as db:
            return self._record(db, incident_id)

    def get(self, user: str, incident_id: str) -> Incident:
        """One incident as `user` may see it."""
        with self._read() as db:
            return incidents.view(self._visible(db, user, incident_id, incidents.RECENT_NOTES))

    def search(self, user: str, query: str = "", include_resolved: bool = False, limit: int = 10) -> IncidentList:
        """Incidents `user` may see whose title or service contains every word of `query`."""
        words = query.casefold().split()
        with self._read() as db:
            rows = db.execute("SELECT incident_id, tenant, title, service, severity, status, restricted_to "
                              "FROM incidents ORDER BY number DESC").fetchall()
        found = [IncidentSummary(incidentId=r.incident_id, title=r.title, service=r.service,
                                 severity=r.severity, status=r.status)
                 for r in (Record(*row) for row in rows)
                 if self.can_read(user, r) and (include_resolved or r.status == "open")
                 and all(word in f"{r.title} {r.service}".casefold() for word in words)]
        return IncidentList(incidents=found[:limit])

    def notes(self, incident_id: str) -> list[Note]:
        """Every note on an incident (the backend's view, for lessons and tests)."""
        record = self.lookup(incident_id)
        return list(record.notes) if record else []

    # writing

    def add_note_once(self, user: str, incident_id: str, text: str, request_id: uuid.UUID | str) -> NoteAdded:
        """Append a note once per (caller, requestId): insert the key, or read the first result back."""
        now = self.clock()
        with self._write() as db:
            db.execute("DELETE FROM requests WHERE created_at <= ?", (now - self.retention,))
            inserted = db.execute(
                "INSERT INTO requests (caller, request_id, incident_id, text, created_at) VALUES (?,?,?,?,?) "
                "ON CONFLICT DO NOTHING", (user, str(request_id), incident_id, text, now)).rowcount
            if not inserted:  # a retry: the unique key already holds the first call's result
                first_id, first_text, note_id = db.execute(
                    "SELECT incident_id, text, note_id FROM requests WHERE caller = ? AND request_id = ?",
                    (user, str(request_id))).fetchone()
                if (first_id, first_text) != (incident_id, text):
                    raise incidents.conflict(request_id)
                return NoteAdded(incidentId=incident_id, noteId=note_id, author=user, text=text)
            self._visible(db, user, incident_id, notes=0)  # not_found rolls the key back too
            seq = db.execute("SELECT COUNT(*) FROM notes WHERE incident_id = ?", (incident_id,)).fetchone()[0] + 1
            db.execute("INSERT INTO notes VALUES (?,?,?,?)", (incident_id, seq, user, text))
            db.execute("UPDATE incidents SET version = version + 1 WHERE incident_id = ?", (incident_id,))
            db.execute("UPDATE requests SET note_id = ? WHERE caller = ? AND request_id = ?",
                       (f"N{seq}", user, str(request_id)))
            if self._pause:  # test hook: a crash here must leave no trace of this call
                time.sleep(self._pause)
            return NoteAdded(incidentId=incident_id, noteId=f"N{seq}", author=user, text=text)

    def preview_close(self, user: str, incident_id: str, resolution: str) -> ClosePreview:
        """What closing would change, and a token bound to this caller, incident, resolution and version."""
        with self._write() as db:
            record = self._visible(db, user, incident_id)
            if record.status == "resolved":
                raise incidents.already_resolved(incident_id)
            token = incidents.preview_token(user, incident_id, resolution, record.version)
            db.execute("INSERT OR REPLACE INTO previews VALUES (?,?,?,?,?)",
                       (token, user, incident_id, resolution, record.version))
            return ClosePreview(incidentId=incident_id, resolution=resolution,
                                change=incidents.close_change(record, resolution), previewToken=token)

    def close(self, user: str, incident_id: str, resolution: str, preview_token: str) -> Incident:
        """Apply a previewed close, only if the call matches the preview exactly and nothing changed since."""
        with self._write() as db:
            bound = db.execute("SELECT caller, incident_id, resolution, version FROM previews WHERE token = ?",
                               (preview_token,)).fetchone()
            if bound is None or bound[0] != user:
                raise incidents.unusable_preview()
            _, previewed_id, previewed_resolution, version = bound
            if (previewed_id, previewed_resolution) != (incident_id, resolution):
                raise incidents.preview_mismatch((previewed_id, previewed_resolution), (incident_id, resolution))
            record = self._visible(db, user, incident_id)
            if record.version != version:
                raise incidents.stale_preview(incident_id)
            db.execute("DELETE FROM previews WHERE token = ?", (preview_token,))
            db.execute("UPDATE incidents SET status = 'resolved', version = version + 1 WHERE incident_id = ?",
                       (incident_id,))
            db.execute("INSERT INTO notes VALUES (?,?,?,?)",
                       (incident_id, len(record.notes) + 1, user, f"Closed as {resolution}."))
            return incidents.view(self._visible(db, user, incident_id))

    def page(self, user: str, service: str, message: str) -> Page:
        """Page the on-call person of a service in the caller's organization."""
        tenant = self.user(user).tenant
        with self._write() as db:
            number = db.execute("SELECT COUNT(*) FROM pages WHERE tenant = ?", (tenant,)).fetchone()[0] + 1
            page = Page(pageId=f"PG-{number}", service=service, oncall=ONCALL[tenant][service], message=message)
            db.execute("INSERT INTO pages VALUES (?,?,?,?,?)", (tenant, number, service, page.oncall, message))
            return page

    def pages(self, tenant: str) -> list[Page]:
        """Pages sent in one organization (the pager's outbox)."""
        with self._read() as db:
            rows = db.execute("SELECT number, service, oncall, message FROM pages WHERE tenant = ? ORDER BY number",
                              (tenant,)).fetchall()
        return [Page(pageId=f"PG-{n}", service=s, oncall=o, message=m) for n, s, o, m in rows]
