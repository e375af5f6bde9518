"""The incident store in production shape: SQLite, durable idempotency across restarts, processes and SIGKILL.

Every server here listens on 127.0.0.1 only; child processes are always stopped (see incident_helpers.Served).
"""

from __future__ import annotations

import sqlite3

import anyio
import pytest
from hypothesis import given, settings, strategies as st

from conftest import call, text
from course_lib import review, wire
from course_lib.servers import build, incidents
from course_lib.incident_store import BUSY, IncidentStore, SqliteStore
from incident_helpers import Served, check_notes_once, connect, request_id, result_text

REQUEST = "7d444840-9dc0-11d1-b245-5ffdce74fad2"
CONFLICT = "already used for a different note, so nothing was changed"


def note_args(note="Rolled back checkout to 2.7.9.", request=REQUEST, incident="INC-101") -> dict:
    return {"incidentId": incident, "note": note, "requestId": request}


# --- one interface, the same answers ------------------------------------------------------------------


def test_both_stores_implement_the_interface(tmp_path):
    assert isinstance(incidents.Store(), IncidentStore) and isinstance(SqliteStore(tmp_path / "s.db"), IncidentStore)
    server = build("incidents", user="ben", store=SqliteStore(tmp_path / "s.db"))
    assert call(server, "get_incident", {"incidentId": "INC-103"})["isError"] is False
    by_path = incidents.build_server("ben", str(tmp_path / "s.db"))
    assert call(by_path, "get_incident", {"incidentId": "INC-103"})["structuredContent"]["title"] == \
        "Search results are stale"


@pytest.mark.parametrize("era", wire.ERAS)
def test_the_sqlite_store_answers_like_the_lesson_store(tmp_path, era):
    """The same calls on both stores give the same wire results: reads, search, notes, previews, pages."""
    script = [
        ("ben", "get_incident", {"incidentId": "INC-204"}), ("ben", "get_incident", {"incidentId": "INC-999"}),
        ("gil", "get_incident", {"incidentId": "INC-101"}), ("ana", "get_incident", {"incidentId": "INC-204"}),
        ("ana", "search_incidents", {"includeResolved": True}), ("gil", "search_incidents", {"query": "checkout"}),
        ("ana", "add_incident_note", note_args()), ("ana", "add_incident_note", note_args()),
        ("ana", "add_incident_note", note_args(note="Other.")), ("ben", "add_incident_note", note_args()),
        ("ben", "add_incident_note", note_args(incident="INC-204", request=request_id("x"))),
        ("ana", "preview_close_incident", {"incidentId": "INC-103", "resolution": "fixed"}),
        ("ben", "close_incident", {"incidentId": "INC-103", "resolution": "fixed", "previewToken": "pv-x"}),
        ("ana", "send_oncall_page", {"service": "checkout", "message": "p99 up"}),
        ("gil", "send_oncall_page", {"service": "checkout", "message": "500s"}),
        ("ana", "get_incident", {"incidentId": "INC-101"}),
    ]

    def run(store):
        servers = {user: incidents.build_server(user, store) for user in incidents.USERS}
        results = [call(servers[user], name, args, era) for user, name, args in script]
        token = results[11]["structuredContent"]["previewToken"]
        args = {"incidentId": "INC-103", "resolution": "fixed", "previewToken": token}
        results += [call(servers["ana"], "close_incident", args, era), call(servers["ana"], "close_incident", args, era)]
        return results, store.pages("acme"), store.notes("INC-101"), store.notes("INC-103")

    assert run(SqliteStore(tmp_path / "s.db")) == run(incidents.Store())


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.sampled_from(["ana", "ben"]), st.sampled_from(["INC-101", "INC-103", "INC-204"]),
                          st.sampled_from(["a", "b"]), st.integers(0, 2)), min_size=1, max_size=12))
def test_any_sequence_of_note_calls_gives_the_same_results_on_both_stores(tmp_path_factory, calls):
    """Retries, conflicts, forbidden incidents and per-caller keys: the SQLite store matches the lesson store."""
    memory, sqlite = incidents.Store(), SqliteStore(tmp_path_factory.mktemp("h") / "s.db")

    def outcome(store, user, incident, note, key):
        try:
            return store.add_note_once(user, incident, note, request_id(key)).model_dump()
        except Exception as error:  # noqa: BLE001 - the refusal text is the outcome
            return str(error)

    for args in calls:
        assert outcome(memory, *args) == outcome(sqlite, *args), args
    for incident in ("INC-101", "INC-103", "INC-204"):
        assert memory.notes(incident) == sqlite.notes(incident)


# --- durability ------------------------------------------------------------------------------------


def test_a_restart_between_a_call_and_its_retry_leaves_one_note(tmp_path):
    first = call(incidents.build_server("ana", SqliteStore(tmp_path / "s.db")), "add_incident_note", note_args())
    restarted = incidents.build_server("ana", SqliteStore(tmp_path / "s.db"))  # a new process would do the same
    assert call(restarted, "add_incident_note", note_args()) == first
    assert CONFLICT in text(call(restarted, "add_incident_note", note_args(note="Changed.")))
    assert [n.text for n in SqliteStore(tmp_path / "s.db").notes("INC-101")].count(note_args()["note"]) == 1


def test_a_conflicting_retry_writes_nothing(tmp_path):
    store = SqliteStore(tmp_path / "s.db")
    server = incidents.build_server("ana", store)
    call(server, "add_incident_note", note_args())
    before = {i: store.notes(i) for i in ("INC-101", "INC-103")}
    for change in ({"note": "A different note."}, {"incident": "INC-103"}):
        result = call(server, "add_incident_note", note_args(**change))
        assert result["isError"] is True and CONFLICT in text(result)
    assert {i: store.notes(i) for i in ("INC-101", "INC-103")} == before
    with sqlite3.connect(store.path) as db:
        assert db.execute("SELECT COUNT(*) FROM requests").fetchone()[0] == 1


def test_keys_expire_after_the_retention_window(tmp_path):
    now = [1_000_000.0]
    store = SqliteStore(tmp_path / "s.db", retention=3600, clock=lambda: now[0])
    first = store.add_note_once("ana", "INC-101", "First.", REQUEST)
    now[0] += 3599
    assert store.add_note_once("ana", "INC-101", "First.", REQUEST) == first, "still inside the window: a retry"
    with pytest.raises(Exception, match=CONFLICT):
        store.add_note_once("ana", "INC-101", "Second.", REQUEST)
    now[0] += 1
    again = store.add_note_once("ana", "INC-101", "Second.", REQUEST)
    assert again.noteId == "N3", "after the window the key is free: a new note"
    assert [n.text for n in store.notes("INC-101")] == [store.notes("INC-101")[0].text, "First.", "Second."]


def test_a_busy_database_is_a_retryable_refusal_with_no_internals(tmp_path):
    store = SqliteStore(tmp_path / "s.db", busy_timeout=0.05)
    holder = sqlite3.connect(store.path, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        result = call(incidents.build_server("ana", store), "add_incident_note", note_args())
    finally:
        holder.close()
    assert result["isError"] is True and text(result) == f"Error executing tool add_incident_note: {BUSY}"
    assert review.leaks(text(result)) == [] and "sqlite" not in text(result).lower()
    assert call(incidents.build_server("ana", store), "add_incident_note", note_args())["isError"] is False


# --- two processes, one file ------------------------------------------------------------------------


def _concurrently(urls: list[str], calls: list[dict], sessions_per_server: int = 5) -> list:
    """Every call at once, spread over sessions on each server (call i goes to server i % len(urls))."""
    results: list = [None] * len(calls)

    async def session(url: str, indexes: list[int]) -> None:
        async with connect(url) as client:
            async with anyio.create_task_group() as group:
                for i in indexes:
                    async def one(i: int = i) -> None:
                        results[i] = await client.call_tool("add_incident_note", calls[i])
                    group.start_soon(one)

    async def main() -> None:
        with anyio.fail_after(120):
            async with anyio.create_task_group() as group:
                for s, url in enumerate(urls):
                    for j in range(sessions_per_server):
                        mine = [i for i in range(len(calls)) if i % len(urls) == s and i // len(urls) % sessions_per_server == j]
                        group.start_soon(session, url, mine)

    anyio.run(main)
    return results


@pytest.fixture
def two_servers(tmp_path):
    """Two server processes on one store file (both as ana, on loopback)."""
    path = tmp_path / "shared.db"
    with Served("--store", str(path)) as a, Served("--store", str(path)) as b:
        yield path, [a.url, b.url]


def test_two_processes_100_concurrent_retries_leave_one_note(two_servers):
    path, urls = two_servers
    results = _concurrently(urls, [note_args()] * 100)
    assert all(r is not None and not r.is_error for r in results), [result_text(r)[:100] for r in results if r]
    assert len({r.structured_content["noteId"] for r in results}) == 1
    assert [n.text for n in SqliteStore(path).notes("INC-101")].count(note_args()["note"]) == 1


def test_two_processes_100_plus_100_conflicting_retries_write_one_note(two_servers):
    path, urls = two_servers
    calls = [note_args(note=f"Version {i % 2}") for i in range(200)]
    results = _concurrently(urls, calls)
    added = SqliteStore(path).notes("INC-101")[1:]
    assert len(added) == 1
    for arguments, result in zip(calls, results):
        assert result.is_error is (arguments["note"] != added[0].text)
        if result.is_error:
            assert CONFLICT in result_text(result)


# --- SIGKILL in the middle of writes -----------------------------------------------------------------


def test_sigkill_mid_write_loses_no_acknowledged_note_and_duplicates_none(tmp_path):
    path, count = tmp_path / "s.db", 8
    calls = [note_args(note=f"Finding {i}.", request=request_id("kill", i)) for i in range(count)]
    acknowledged: dict[int, str] = {}

    async def send_all(url: str, on_ack) -> None:
        try:
            async with connect(url) as client:
                async with anyio.create_task_group() as group:
                    for i in range(count):
                        async def one(i: int = i) -> None:
                            result = await client.call_tool("add_incident_note", calls[i])
                            if not result.is_error:
                                acknowledged[i] = result.structured_content["noteId"]
                                await on_ack()
                        group.start_soon(one)
        except Exception:  # noqa: BLE001 - the server died under us: unacknowledged calls just fail
            pass

    # each write pauses 0.3 s inside its transaction; writers queue on the database's lock
    with Served("--store", str(path), env={"COURSE_SQLITE_PAUSE_IN_WRITE": "0.3"}) as doomed:
        async def kill_after_three() -> None:
            if len(acknowledged) == 3:
                await anyio.sleep(0.1)  # the next writer is now inside its transaction's pause
                doomed.kill()

        async def first_run() -> None:
            with anyio.move_on_after(60):
                await send_all(doomed.url, kill_after_three)

        anyio.run(first_run)
        assert doomed.process.returncode == -9
    assert 3 <= len(acknowledged) < count, acknowledged
    assert len(SqliteStore(path).notes("INC-101")) - 1 == len(acknowledged), "only committed notes survive"

    with Served("--store", str(path)) as restarted:  # every call is retried, acknowledged or not
        retried = _concurrently([restarted.url], calls)
    for i, result in enumerate(retried):
        assert not result.is_error, result_text(result)
        if i in acknowledged:
            assert result.structured_content["noteId"] == acknowledged[i], "a retry returns the first result"
    assert check_notes_once(path, {request_id("kill", i): ("ana", c["note"]) for i, c in enumerate(calls)}) == []


# --- bad input --------------------------------------------------------------------------------------


def test_the_sqlite_backed_server_survives_generated_invalid_arguments(tmp_path):
    from test_bad_input import _ECHOED_INPUT, survey

    seen = survey(incidents.build_server("ben", SqliteStore(tmp_path / "s.db")))
    for tool, arguments, result in seen:
        body = "\n".join(block.get("text", "") for block in result.get("content", []))
        if result.get("isError"):
            assert body != f"Error executing tool {tool}", f"{tool} crashed on {arguments!r:.200}"
            assert review.leaks(_ECHOED_INPUT.sub("", body)) == [], body[:300]
            assert "sqlite" not in body.lower() and str(tmp_path) not in body


@settings(max_examples=15, deadline=None, derandomize=True)
@given(st.text(min_size=1, max_size=500) | st.sampled_from([
    "'); DROP TABLE notes; --", "x' OR '1'='1", "Robert'); DELETE FROM requests;--", "\\0\\n\\r%_*"]))
def test_any_note_text_is_stored_verbatim_and_read_back(tmp_path_factory, note):
    store = SqliteStore(tmp_path_factory.mktemp("t") / "s.db")
    server = incidents.build_server("ana", store)
    result = call(server, "add_incident_note", note_args(note=note, request=request_id(note)))
    assert result["isError"] is False and result["structuredContent"]["text"] == note
    assert store.notes("INC-101")[-1].text == note and len(store.notes("INC-101")) == 2
    assert call(server, "add_incident_note", note_args(note=note, request=request_id(note))) == result
