"""Incident servers in child processes on loopback, token-bearing clients, and the mixed HTTP load.

Shared by tests/test_incident_store.py, tests/test_auth.py and tests/benchmark.py.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path

TOKENS = {"ana": "nIBSgHVUkB-MVuW4nG7ePEkdV5aow-9MhjwnX6XUhHQ", "ben": "d1W4gqpsS6dwA4mUP8l5pbxEpPMMK70zY8AZfAy0K9I", "gil": "5K7lWjjWlX7O7FP8aB1ng6j2OcopttmzsrX_PVfnDx0"}
OWN = {"ana": "INC-101", "ben": "INC-103", "gil": "INC-301"}
"""An open incident each user may read and write."""
FORBIDDEN = {"ana": "INC-301", "ben": "INC-204", "gil": "INC-101"}
"""An incident each user may not read: another tenant's, or (for ben) a restricted one."""
NAMESPACE = uuid.UUID("7d444840-9dc0-11d1-b245-5ffdce74fad2")


def request_id(*parts: object) -> str:
    """A fixed UUID for a call, so runs are repeatable."""
    return str(uuid.uuid5(NAMESPACE, "/".join(map(str, parts))))


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def write_tokens(folder: Path) -> Path:
    """A token file in the `token user` line format, for the three users."""
    path = folder / "tokens.txt"
    path.write_text("# token user\n" + "".join(f"{token} {user}\n" for user, token in TOKENS.items()))
    return path


class Served:
    """`python -m course_lib.serving incidents --transport http ...` in a child process on a free loopback port.

    Always cleaned up: terminated on exit, killed if it does not stop, even when the test failed.
    """

    def __init__(self, *flags: str, env: dict[str, str] | None = None):
        from course_lib import serving

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        self._err = tempfile.TemporaryFile()
        argv = serving.command("incidents", "--transport", "http", "--port", str(self.port), *flags)
        self.process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=self._err,
                                        env={**os.environ, **(env or {})})
        for _ in range(1200):  # bounded: at most about 60 s (a loaded machine, a database to reach)
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited early: {self.log}")
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("server did not start listening")

    @property
    def log(self) -> str:
        self._err.seek(0)
        return self._err.read().decode(errors="replace")

    def kill(self) -> None:
        """SIGKILL: no cleanup, no flush, no goodbye."""
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> "Served":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
        self._err.close()


@asynccontextmanager
async def connect(url: str, token: str | None = None, era: str = "2026-07-28"):
    """An SDK client over streamable HTTP, sending `Authorization: Bearer <token>` when a token is given."""
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    from course_lib import wire

    headers = {"Authorization": f"Bearer {token}"} if token else {}
    # idle connections are dropped after 2 s, before the server's own 5 s keep-alive closes them: with equal
    # limits a call sent on a connection the server is closing at that moment fails (ReadError), a race that
    # a loaded machine, where clients wait long for each other, hits
    limits = httpx2.Limits(keepalive_expiry=2.0)
    async with httpx2.AsyncClient(headers=headers, timeout=60, limits=limits) as http:
        for attempt in range(3):
            stack = AsyncExitStack()
            try:
                client = await stack.enter_async_context(
                    wire.connect(streamable_http_client(url, http_client=http), era))
            except RuntimeError as error:
                # the SDK's "auto" mode falls back to the handshake when its server/discover probe gets no answer
                # within DISCOVER_TIMEOUT_SECONDS (10 s), which a load of 100 connections opening at once on a
                # busy two-core machine can reach: connect again rather than test the older era by accident
                if "the server negotiated" not in str(error) or attempt == 2:
                    raise
                continue
            async with stack:
                yield client
            return


def result_text(result) -> str:
    """All text content of an SDK result."""
    return "".join(getattr(block, "text", "") for block in result.content)


async def mixed_load(urls: list[str], clients: int, calls: int, tokens: dict[str, str] = TOKENS) -> dict:
    """`clients` clients × `calls` calls: reads, notes with a retry on the other server, forbidden reads.

    Client k signs in as a user in turn and holds one session on each server. Its calls cycle
    through: read its own incident; add a note (server A); retry that note (server B); read a
    forbidden incident. Returns latencies, protocol errors, wrong answers and the notes written.
    """
    import anyio

    users = sorted(tokens)
    latencies: list[float] = []
    by_kind: dict[str, list[float]] = {"read": [], "note": [], "retry": [], "forbidden read": []}
    protocol_errors: list[str] = []
    wrong: list[str] = []
    notes: dict[str, tuple[str, str]] = {}  # request id -> (user, text)

    async def one_client(k: int) -> None:
        user = users[k % len(users)]
        first, second = urls[k % len(urls)], urls[(k + 1) % len(urls)]
        async with connect(first, tokens[user]) as a, connect(second, tokens[user]) as b:
            await a.list_tools(), await b.list_tools()  # warm-up, not timed: the client fetches schemas once
            missing = result_text(await a.call_tool("get_incident", {"incidentId": "INC-999"}))
            ready.append(k)
            if len(ready) == clients:
                go.set()
                start[0] = time.perf_counter()
            await go.wait()  # every client starts its timed calls together
            acked: dict[str, str] = {}
            for i in range(calls):
                kind, n = i % 4, i // 4
                rid, text = request_id("load", k, n), f"client {k} note {n}"
                name, args, client = "get_incident", {"incidentId": OWN[user]}, a
                if kind in (1, 2):
                    name, client = "add_incident_note", (a if kind == 1 else b)
                    args = {"incidentId": OWN[user], "note": text, "requestId": rid}
                elif kind == 3:
                    args = {"incidentId": FORBIDDEN[user]}
                started = time.perf_counter()
                try:
                    result = await client.call_tool(name, args)
                except Exception as error:  # noqa: BLE001 - any failure to get an answer is a protocol error
                    protocol_errors.append(f"{type(error).__name__}: {error}"[:200])
                    continue
                latencies.append(time.perf_counter() - started)
                by_kind[list(by_kind)[kind]].append(latencies[-1])
                body = result_text(result)
                if kind == 0 and (result.is_error or result.structured_content["incidentId"] != OWN[user]):
                    wrong.append(f"{user} could not read {OWN[user]}: {body[:100]}")
                elif kind in (1, 2):
                    notes[rid] = (user, text)
                    got = None if result.is_error else result.structured_content
                    if got is None or got["author"] != user or got["text"] != text:
                        wrong.append(f"{user} note {rid}: {body[:100]}")
                    elif kind == 2 and acked.get(rid) != got["noteId"]:
                        wrong.append(f"{user} retry {rid} got {got['noteId']}, first call {acked.get(rid)}")
                    else:
                        acked[rid] = got["noteId"]
                elif kind == 3 and (not result.is_error or body.replace(FORBIDDEN[user], "<id>")
                                    != missing.replace("INC-999", "<id>")):
                    wrong.append(f"{user} read {FORBIDDEN[user]} differently from a missing one: {body[:100]}")

    ready: list[int] = []
    go, start = anyio.Event(), [0.0]
    with anyio.fail_after(600):
        async with anyio.create_task_group() as group:
            for k in range(clients):
                group.start_soon(one_client, k)
    elapsed = time.perf_counter() - start[0]
    return {
        "calls": len(latencies) + len(protocol_errors), "seconds": elapsed, "protocol_errors": protocol_errors,
        "wrong": wrong, "notes": notes, "throughput": len(latencies) / elapsed,
        "p50_ms": percentile(latencies, 50), "p99_ms": percentile(latencies, 99),
        "by_kind": {kind: (percentile(values, 50), percentile(values, 99)) for kind, values in by_kind.items()},
    }


def percentile(values: list[float], q: int) -> float:
    """The q-th percentile of durations in seconds, in milliseconds (nearest rank)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, max(0, -(-q * len(ordered) // 100) - 1))]


def check_notes_once(where: Path | str, notes: dict[str, tuple[str, str]]) -> list[str]:
    """Problems with the notes in a store (a SQLite path or a PostgreSQL URL): every (user, text) must be on its
    user's incident exactly once."""
    from course_lib import incident_store

    store = incident_store.open_store(where)
    problems = []
    by_incident = {incident: [(n.author, n.text) for n in store.notes(incident)] for incident in OWN.values()}
    for rid, (user, text) in notes.items():
        count = by_incident[OWN[user]].count((user, text))
        if count != 1:
            problems.append(f"{rid}: {count} notes for {text!r}")
    store.disconnect()
    return problems
