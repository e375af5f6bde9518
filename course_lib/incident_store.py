"""The incident backend in a database: SQLite on one machine, PostgreSQL across machines.

Lesson 05's in-memory `incidents.Store` proves one note per requestId with a Python lock, which
does not cross processes, hosts or restarts. `SqliteStore` (one file, standard-library sqlite3,
WAL) and `PostgresStore` (a PostgreSQL database, psycopg 3: `pip install -e ".[postgres]"`) keep
the same methods and answers, with the same SQL (`SqlStore`), so the database keeps the promise:

* a note and its idempotency record are written in one transaction;
* `UNIQUE (caller, request_id)` does the work the lock did: the first call inserts the key,
  a retry's `INSERT … ON CONFLICT DO NOTHING` inserts nothing and reads the first result back;
* writers that touch the same incident are serialized by the database: SQLite takes its one
  write lock at `BEGIN IMMEDIATE`, PostgreSQL locks the incident's row (`SELECT … FOR UPDATE`);
  a writer that waits longer than the timeout (30 s) gets `BUSY`, a refusal to retry;
* keys expire after `retention` seconds, preview tokens (random) after `preview_ttl`, measured with an
  injectable `clock`.

`open_store(where)` opens either from where it lives: a file path or a `postgresql://` URL
(`redacted(url)` is that URL fit to print, with no password).

Test hook: the environment variable `COURSE_STORE_PAUSE_IN_WRITE` (seconds), read only here,
pauses inside each note's transaction before the commit, so a test can kill a server mid-write.
"""

from __future__ import annotations

import os
import queue
import re
import sqlite3
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from mcp.server.mcpserver.exceptions import ToolError

from course_lib import incident_model
from course_lib.errors import CourseError, UsageError
from course_lib.incident_model import (ONCALL, ClosePreview, Incident, IncidentList, IncidentSummary, Note,
                                       NoteAdded, Page, Record)

PAUSE_ENV = "COURSE_STORE_PAUSE_IN_WRITE"
DAY = 24 * 3600.0
URL_SCHEMES = ("postgresql://", "postgres://")

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
    note_id TEXT, created_at DOUBLE PRECISION NOT NULL, UNIQUE (caller, request_id));
CREATE INDEX IF NOT EXISTS requests_by_age ON requests (created_at);
CREATE TABLE IF NOT EXISTS close_previews (
    token TEXT PRIMARY KEY, caller TEXT NOT NULL, incident_id TEXT NOT NULL, resolution TEXT NOT NULL,
    version INTEGER NOT NULL, created_at DOUBLE PRECISION NOT NULL);
CREATE TABLE IF NOT EXISTS pages (
    tenant TEXT NOT NULL, number INTEGER NOT NULL, service TEXT NOT NULL, oncall TEXT NOT NULL,
    message TEXT NOT NULL, PRIMARY KEY (tenant, number))
"""
"""One schema for both databases (SQLite reads DOUBLE PRECISION as its 8-byte REAL)."""

CLAIM_KEY = ("INSERT INTO requests (caller, request_id, incident_id, text, created_at) "
             "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")
"""The recipe's first step: claim the (caller, requestId) key, or insert nothing if it is taken."""
READ_FIRST = "SELECT incident_id, text, note_id FROM requests WHERE caller = ? AND request_id = ?"
"""The recipe's retry path: the first call's inputs and result, kept beside its key."""

BUSY = ("The incident store is busy, so nothing was changed. Retry the same call with the same "
        "requestId in a few seconds.")
UNREACHABLE = ("The incident store cannot be reached right now. Retry in a few seconds; a note "
               "retried with the same requestId is added once.")


class StoreUnavailable(CourseError):
    """A store that cannot be opened: a bad path or file, a database server that refuses or is down."""


class SqlStore:
    """The incident backend in SQL tables, shared by the SQLite and PostgreSQL stores.

    A subclass opens connections (`_open`) and runs transactions (`_transaction`); its class
    attributes say how its database locks what a write changes.
    """

    user = staticmethod(incident_model.user)
    can_read = staticmethod(incident_model.can_read)
    BEGIN_WRITE = BEGIN_READ = "BEGIN"
    """How a write and a read transaction begin."""
    FOR_UPDATE = ""
    """Appended to a write's SELECT of the incident it changes: a row lock where the database has them."""
    LOCK_PAGES = ""
    """The statement that serializes page numbering within a write, where the write lock does not."""
    LOCK_SCHEMA = ""
    """The statement that serializes creating the tables, where the write lock does not."""

    def __init__(self, retention: float, clock: Callable[[], float],
                 preview_ttl: float = incident_model.PREVIEW_TTL):
        self.retention, self.clock, self.preview_ttl = retention, clock, preview_ttl
        self._pause = float(os.environ.get(PAUSE_ENV) or 0)
        self._idle: queue.LifoQueue = queue.LifoQueue()
        self._opened: list = []
        self._opened_lock = threading.Lock()
        with self._write() as db:  # every statement is idempotent; two processes may start at once
            if self.LOCK_SCHEMA:
                db.execute(self.LOCK_SCHEMA)
            for statement in SCHEMA.split(";"):
                db.execute(statement)
            self._seed(db)

    # connections: a pool of open ones, each used by one thread at a time

    def _open(self):
        raise NotImplementedError

    def _transaction(self, begin: str):
        raise NotImplementedError

    def _checkout(self):
        """An idle connection, or a new one when every open one is in use."""
        try:
            return self._idle.get_nowait()
        except queue.Empty:
            db = self._open()
            with self._opened_lock:
                self._opened.append(db)
            return db

    def _checkin(self, db) -> None:
        self._idle.put(db)

    def _discard(self, db) -> None:
        """Close a connection and forget it (it broke, or the database restarted)."""
        with self._opened_lock:
            if db in self._opened:
                self._opened.remove(db)
        try:
            db.close()
        except Exception:  # noqa: BLE001 - a broken connection may fail to close; it is gone either way
            pass

    def disconnect(self) -> None:
        """Close every connection this store opened (`close` is closing an incident)."""
        with self._opened_lock:
            opened, self._opened = self._opened, []
        for db in opened:
            db.close()
        self._idle = queue.LifoQueue()

    def _write(self):
        """A write transaction: what it changes is locked until it commits."""
        return self._transaction(self.BEGIN_WRITE)

    def _read(self):
        """A read transaction: one consistent snapshot."""
        return self._transaction(self.BEGIN_READ)

    def _seed(self, db) -> None:
        if db.execute("SELECT COUNT(*) FROM incidents").fetchone()[0]:
            return
        for r in incident_model.seed().values():
            db.execute("INSERT INTO incidents VALUES (?,?,?,?,?,?,?,?,?)",
                       (r.incident_id, incident_model.id_number(r.incident_id), r.tenant, r.title, r.service,
                        r.severity, r.status, r.restricted_to, r.version))
            for seq, note in enumerate(r.notes, 1):
                db.execute("INSERT INTO notes VALUES (?,?,?,?)", (r.incident_id, seq, note.author, note.text))

    # reading and authorization

    def _record(self, db, incident_id: str, notes: int | None = None, lock: bool = False) -> Record | None:
        """The record with all its notes, or only the `notes` most recent ones; `lock` it for a write."""
        row = db.execute("SELECT incident_id, tenant, title, service, severity, status, restricted_to, version "
                         "FROM incidents WHERE incident_id = ?" + (self.FOR_UPDATE if lock else ""),
                         (incident_id,)).fetchone()
        if row is None:
            return None
        record = Record(*row[:7], version=row[7])
        recent = "" if notes is None else f" LIMIT {int(notes)}"
        rows = db.execute("SELECT seq, author, text FROM notes WHERE incident_id = ? ORDER BY seq DESC" + recent,
                          (incident_id,)).fetchall()
        record.notes = [Note(noteId=f"N{seq}", author=author, text=text) for seq, author, text in reversed(rows)]
        return record

    def _visible(self, db, user: str, incident_id: str, notes: int | None = None, lock: bool = False) -> Record:
        record = self._record(db, incident_id, notes, lock)
        if record is None or not self.can_read(user, record):
            raise incident_model.not_found(incident_id)
        return record

    def lookup(self, incident_id: str) -> Record | None:
        """The raw record for an ID, with no authorization at all (for lessons and tests)."""
        with self._read() as db:
            return self._record(db, incident_id)

    def get(self, user: str, incident_id: str) -> Incident:
        """One incident as `user` may see it."""
        with self._read() as db:
            return incident_model.view(self._visible(db, user, incident_id, incident_model.RECENT_NOTES))

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

    def add_note_once(self, user: str, incident_id: str, text: str,
                      request_id: uuid.UUID | str) -> NoteAdded:
        """Append a note once per (caller, requestId): claim the key, or read it back."""
        key, now = (user, str(request_id)), self.clock()
        with self._write() as db:  # one transaction: the note and its key commit together
            expired = now - self.retention
            db.execute("DELETE FROM requests WHERE created_at <= ?", (expired,))
            if not db.execute(CLAIM_KEY, (*key, incident_id, text, now)).rowcount:
                first_id, first_text, note_id = db.execute(READ_FIRST, key).fetchone()
                if (first_id, first_text) != (incident_id, text):
                    raise incident_model.conflict(request_id)  # the same key, another note
                return NoteAdded(incidentId=incident_id, noteId=note_id, author=user,
                                 text=text)
            self._visible(db, user, incident_id, notes=0, lock=True)  # else no key kept
            seq = db.execute("SELECT COUNT(*) FROM notes WHERE incident_id = ?",
                             (incident_id,)).fetchone()[0] + 1
            db.execute("INSERT INTO notes VALUES (?,?,?,?)", (incident_id, seq, user, text))
            db.execute("UPDATE incidents SET version = version + 1 WHERE incident_id = ?",
                       (incident_id,))
            db.execute("UPDATE requests SET note_id = ? WHERE caller = ? AND "
                       "request_id = ?", (f"N{seq}", *key))
            if self._pause:  # test hook: a crash here must leave no trace of this call
                time.sleep(self._pause)
            return NoteAdded(incidentId=incident_id, noteId=f"N{seq}", author=user,
                             text=text)

    def preview_close(self, user: str, incident_id: str, resolution: str) -> ClosePreview:
        """What closing would change, and a token bound to this caller, incident, resolution and version."""
        with self._write() as db:
            record = self._visible(db, user, incident_id)
            if record.status == "resolved":
                raise incident_model.already_resolved(incident_id)
            now = self.clock()
            db.execute("DELETE FROM close_previews WHERE created_at <= ?", (now - self.preview_ttl,))
            token = incident_model.new_preview_token()
            db.execute("INSERT INTO close_previews VALUES (?,?,?,?,?,?)",
                       (token, user, incident_id, resolution, record.version, now))
            return ClosePreview(incidentId=incident_id, resolution=resolution,
                                change=incident_model.close_change(record, resolution), previewToken=token)

    def close(self, user: str, incident_id: str, resolution: str, preview_token: str) -> Incident:
        """Apply a previewed close, only if the call matches the preview exactly and nothing changed since."""
        with self._write() as db:
            bound = db.execute("SELECT caller, incident_id, resolution, version FROM close_previews WHERE token = ?"
                               " AND created_at > ?" + self.FOR_UPDATE,
                               (preview_token, self.clock() - self.preview_ttl)).fetchone()
            if bound is None or bound[0] != user:
                raise incident_model.unusable_preview()
            _, previewed_id, previewed_resolution, version = bound
            if (previewed_id, previewed_resolution) != (incident_id, resolution):
                raise incident_model.preview_mismatch((previewed_id, previewed_resolution), (incident_id, resolution))
            record = self._visible(db, user, incident_id, lock=True)
            if record.version != version:
                raise incident_model.stale_preview(incident_id)
            db.execute("DELETE FROM close_previews WHERE token = ?", (preview_token,))
            db.execute("UPDATE incidents SET status = 'resolved', version = version + 1 WHERE incident_id = ?",
                       (incident_id,))
            db.execute("INSERT INTO notes VALUES (?,?,?,?)",
                       (incident_id, len(record.notes) + 1, user, f"Closed as {resolution}."))
            return incident_model.view(self._visible(db, user, incident_id))

    def page(self, user: str, service: str, message: str) -> Page:
        """Page the on-call person of a service in the caller's organization."""
        tenant = self.user(user).tenant
        with self._write() as db:
            if self.LOCK_PAGES:
                db.execute(self.LOCK_PAGES)
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


class SqliteStore(SqlStore):
    """The incident backend in one SQLite file; safe across threads, processes and restarts on one machine."""

    BEGIN_WRITE = "BEGIN IMMEDIATE"
    """Take the file's one write lock now, so a second writer waits here (up to `busy_timeout`)."""
    BEGIN_READ = "BEGIN"

    def __init__(self, path: str | os.PathLike, retention: float = DAY, clock: Callable[[], float] = time.time,
                 busy_timeout: float = 30.0):
        self.path, self.busy_timeout = Path(path), busy_timeout
        try:
            super().__init__(retention, clock)
        except sqlite3.DatabaseError as error:
            self.disconnect()
            raise StoreUnavailable(f"cannot use {self.path} as the incident store: {error}") from None

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=self.busy_timeout,  # wait up to this long for the lock
                             isolation_level=None, check_same_thread=False)
        if not self._opened:  # the file's mode: set once, kept by the file
            self._use_wal(db)
        db.execute("PRAGMA synchronous=FULL")
        return db

    def _use_wal(self, db: sqlite3.Connection) -> None:
        """Switch the file to WAL, waiting up to `busy_timeout` for other starting stores.

        The switch needs the file to itself and SQLite may refuse it at once, without the busy
        wait, while another store is creating the tables: so it is retried here.
        """
        deadline = time.monotonic() + self.busy_timeout
        while True:
            try:
                db.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() >= deadline:
                    raise
                time.sleep(0.005)

    @contextmanager
    def _transaction(self, begin: str) -> Iterator[sqlite3.Connection]:
        """One transaction; rolled back on any error, a busy database turned into a retryable ToolError."""
        db = self._checkout()
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
        finally:
            self._checkin(db)


BUSY_STATES = {"40001": "serialization failure", "40P01": "deadlock", "55P03": "lock timeout",
               "57014": "statement timeout"}
"""PostgreSQL errors that mean "another transaction was in the way": the call may simply be retried."""


class PostgresStore(SqlStore):
    """The incident backend in a PostgreSQL database; safe across threads, processes, hosts and restarts.

    `url`: a libpq connection URL (`postgresql://user@host:5432/db`, or `?host=/socket/dir`); the
    password is best left out of it (libpq reads `PGPASSWORD` or `~/.pgpass`). Writes run at READ
    COMMITTED and lock the incident row they change; a write that waits over `lock_timeout` seconds
    is refused with `BUSY`. A connection lost to a database restart is replaced on the next call.
    """

    BEGIN_WRITE = "BEGIN"
    BEGIN_READ = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
    FOR_UPDATE = " FOR UPDATE"
    LOCK_PAGES = "LOCK TABLE pages IN EXCLUSIVE MODE"
    LOCK_SCHEMA = "SELECT pg_advisory_xact_lock(5050)"

    def __init__(self, url: str, retention: float = DAY, clock: Callable[[], float] = time.time,
                 lock_timeout: float = 30.0):
        try:
            import psycopg
        except ImportError:
            raise UsageError('the PostgreSQL store needs psycopg 3: pip install -e ".[postgres]"') from None
        self._psycopg, self.url, self.lock_timeout = psycopg, url, lock_timeout
        self._reason = "no answer"
        try:
            self._password = psycopg.conninfo.conninfo_to_dict(url).get("password")
        except psycopg.ProgrammingError:
            raise StoreUnavailable(f"{redacted(url)} is not a PostgreSQL connection URL") from None
        try:
            super().__init__(retention, clock)
        except (ToolError, psycopg.Error) as error:
            self.disconnect()
            reason = self._reason if isinstance(error, ToolError) else self._scrub(" ".join(str(error).split()))
            raise StoreUnavailable(f"cannot use the incident store at {redacted(url)}: {reason}") from None

    def _open(self):
        psycopg = self._psycopg
        try:
            db = psycopg.connect(self.url, autocommit=True, connect_timeout=10, application_name="course incidents")
        except psycopg.Error as error:
            self._reason = self._scrub(" ".join(str(error).split()))
            raise ToolError(UNREACHABLE) from None
        db.execute("SELECT set_config('lock_timeout', %s, false)", (f"{round(self.lock_timeout * 1000)}ms",))
        return _QmarkConnection(db)

    def _scrub(self, message: str) -> str:
        """A driver's message with the password taken out, should it ever carry one."""
        return message.replace(self._password, "***") if self._password else message

    @contextmanager
    def _transaction(self, begin: str) -> Iterator[_QmarkConnection]:
        """One transaction; rolled back on any error, a busy or lost database turned into a retryable ToolError."""
        psycopg = self._psycopg
        db = self._begin(begin)
        try:
            yield db
            db.execute("COMMIT")
        except psycopg.Error as error:
            refusal = self._refusal(db, error)
            self._finish(db)
            if refusal is None:
                raise
            raise ToolError(refusal) from None
        except BaseException:
            self._finish(db)
            raise
        else:
            self._checkin(db)

    def _begin(self, begin: str) -> _QmarkConnection:
        """A connection with `begin` run on it; stale connections (a database restart) are replaced once."""
        db = self._checkout()
        try:
            db.execute(begin)
            return db
        except self._psycopg.OperationalError:
            self._discard(db)
            while True:  # the others were opened before the same restart
                try:
                    self._discard(self._idle.get_nowait())
                except queue.Empty:
                    break
        db = self._checkout()
        try:
            db.execute(begin)
        except self._psycopg.OperationalError as error:
            self._discard(db)
            self._reason = self._scrub(" ".join(str(error).split()))
            raise ToolError(UNREACHABLE) from None
        return db

    def _refusal(self, db: _QmarkConnection, error: Exception) -> str | None:
        """The retryable refusal for a database error, or None for one that is a bug (the SDK hides its text)."""
        state = getattr(error, "sqlstate", None)
        if state in BUSY_STATES:
            return BUSY
        if db.raw.broken or isinstance(error, self._psycopg.OperationalError) or (state or "").startswith(("08", "57P")):
            print(f"incident store: {self._scrub(' '.join(str(error).split()))}", file=sys.stderr)
            return UNREACHABLE
        return None

    def _finish(self, db: _QmarkConnection) -> None:
        """Roll back what is left of a failed transaction, and keep the connection only if it still works."""
        if not db.raw.broken:
            try:
                db.execute("ROLLBACK")
                self._checkin(db)
                return
            except self._psycopg.Error:
                pass
        self._discard(db)


class _QmarkConnection:
    """A psycopg connection that takes the `?` placeholders the shared SQL is written with."""

    def __init__(self, raw):
        self.raw = raw

    def execute(self, statement: str, params: tuple[Any, ...] | None = None):
        return self.raw.execute(statement.replace("?", "%s"), params)

    def close(self) -> None:
        self.raw.close()


def open_store(where: str | os.PathLike) -> SqliteStore | PostgresStore:
    """The store that lives `where`: a `postgresql://` URL, or the path of a SQLite file."""
    text = os.fspath(where)
    return PostgresStore(text) if text.startswith(URL_SCHEMES) else SqliteStore(text)


def redacted(where: str | os.PathLike) -> str:
    """Where a store lives, fit to print: a URL's password (in its user part or `password=`) as ***."""
    text = os.fspath(where)
    if not text.startswith(URL_SCHEMES):
        return text
    text = re.sub(r"^([a-z]+://[^:/?#@]*):[^@/?#]*@", r"\1:***@", text)
    return re.sub(r"([?&]password=)[^&#]*", r"\1***", text)
