"""Caller identity and safe binding: bearer tokens over HTTP, the user over stdio, loopback by default, and load.

Every server here listens on 127.0.0.1 only; child processes are always stopped (see incident_helpers.Served).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import subprocess
import sys

import anyio
import pytest

from conftest import call, text
from course_lib import auth, serving
from course_lib.errors import UnknownName
from course_lib.servers import incidents
from incident_helpers import (FORBIDDEN, OWN, TOKENS, Served, check_notes_once, connect, mixed_load, result_text,
                              write_tokens)

MISSING = "Incident {} was not found, or you do not have access to it. Use search_incidents to find the IDs you can see."


# --- the token file --------------------------------------------------------------------------------


def test_token_files_in_both_formats_give_the_same_map_of_hashes(tmp_path):
    lines = write_tokens(tmp_path)
    (tmp_path / "tokens.json").write_text(json.dumps({token: user for user, token in TOKENS.items()}))
    expected = {"sha256:" + hashlib.sha256(t.encode()).hexdigest(): u for u, t in TOKENS.items()}
    assert auth.read_tokens(lines) == auth.read_tokens(tmp_path / "tokens.json") == expected
    assert not any(token in str(auth.read_tokens(lines)) for token in TOKENS.values())  # no token kept in memory


@pytest.mark.parametrize("content, says", [
    ("short ana\n", "line 1: each token must be at least 32 characters"),
    ("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa ana\n", "line 1: this token is too predictable"),
    ("abababababababababababababababababababab ana\n", "line 1: this token is too predictable"),
    ("sha256:1234 ana\n", "line 1: a hashed token is sha256: and 64 lowercase hex digits"),
    ("# users\n\nnIBSgHVUkB-MVuW4nG7ePEkdV5aow-9MhjwnX6XUhHQ ana extra\n", "line 3: write one 'token user' pair per line"),
    ('{"nIBSgHVUkB-MVuW4nG7ePEkdV5aow-9MhjwnX6XUhHQ": 7}', "entry 1: each token and user must be a string"),
    ('{"nIBSgHVUkB-MVuW4nG7ePEkdV5aow-9MhjwnX6XUhHQ": ', "is not a JSON object of token: user pairs"),
    ("nIBSgHVUkB-MVuW4nG7ePEkdV5aow-9MhjwnX6XUhHQ ana\nnIBSgHVUkB-MVuW4nG7ePEkdV5aow-9MhjwnX6XUhHQ ben\n", "line 2: the same token appears twice"),
    ("nIBSgHVUkB-MVuW4nG7ePEkdV5aow-9MhjwnX6XUhHQ ana\nsha256:0acdcab8f46dff072fb762a0c828ebf4718195d89ccb96f891642491ed973639 ben\n", "line 2: the same token appears twice"),
    ("# nothing\n", "holds no tokens"),
])
def test_a_bad_token_file_is_one_line_that_never_shows_a_token(tmp_path, content, says):
    path = tmp_path / "tokens.txt"
    path.write_text(content)
    with pytest.raises(auth.TokenFileProblem, match=r"\A[^\n]*\Z") as problem:
        auth.read_tokens(path)
    assert says in str(problem.value) and "nIBSgHVU" not in str(problem.value) and "aaaaaaaa" not in str(problem.value)


def test_a_file_of_hashes_signs_in_the_same_users_as_the_tokens(tmp_path):
    fresh, line = auth.new_token("ana")
    assert len(fresh) >= 43 and fresh not in line and line.startswith("sha256:") and line.endswith(" ana")
    (tmp_path / "hashed.txt").write_text(line + "\n")
    verifier = auth.StaticTokens(auth.read_tokens(tmp_path / "hashed.txt"))
    assert asyncio.run(verifier.verify_token(fresh)).subject == "ana"
    assert asyncio.run(verifier.verify_token(line.split()[0])) is None  # the digest itself is no password
    assert asyncio.run(verifier.verify_token(fresh + "x")) is None


def test_random_tokens_pass_the_entropy_floor_and_patterned_ones_do_not():
    import secrets

    assert all(auth.weakness(secrets.token_urlsafe(32)) is None for _ in range(200))
    assert all(auth.weakness(secrets.token_hex(32)) is None for _ in range(200))
    for weak in ("a" * 64, "ab" * 32, "password" * 5, "0123" * 10):
        assert auth.weakness(weak) is not None, weak


def test_a_token_for_an_unknown_user_is_a_setup_error():
    with pytest.raises(UnknownName, match="unknown user 'eve'"):
        incidents.build_server(tokens={"xV2jJbUwILgElLTBDFZ5pWQGxkW6kCv3-80HDsZhwFU": "eve"})


# --- binding -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", "127.0.0.2"])
def test_loopback_needs_no_tokens(host):
    auth.check_binding(host, None)


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.20", "example.org"])
def test_any_other_host_needs_tokens(host):
    with pytest.raises(auth.BindingRefused, match="without --tokens"):
        auth.check_binding(host, None)
    auth.check_binding(host, "tokens.txt")


@pytest.mark.parametrize("argv", [
    [sys.executable, "-m", "course_lib.cli", "serve", "incidents", "--transport", "http", "--host", "0.0.0.0"],
    serving.command("incidents", "--transport", "http", "--host", "0.0.0.0", "--port", "9"),
])
def test_serving_beyond_loopback_without_tokens_is_refused_in_one_line(argv):
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "refusing to listen on 0.0.0.0 without --tokens" in done.stderr


def test_host_and_origin_checks_stay_on_beyond_loopback():
    """The SDK turns its DNS-rebinding guard off for a non-loopback host; ours keeps it on with an allow-list."""
    settings = auth.transport_security("0.0.0.0", ["mcp.example.org"])
    assert settings.enable_dns_rebinding_protection is True
    assert {"127.0.0.1:*", "localhost:*", "[::1]:*", "mcp.example.org:*"} <= set(settings.allowed_hosts)
    assert "0.0.0.0:*" not in settings.allowed_hosts and "http://mcp.example.org:*" in settings.allowed_origins
    assert "192.168.1.20:*" in auth.transport_security("192.168.1.20").allowed_hosts

    async def answers(app, headers: dict) -> int:
        import httpx2
        import uvicorn

        from incident_helpers import free_port

        port = free_port()
        userver = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
        async with anyio.create_task_group() as group:
            group.start_soon(userver.serve)
            with anyio.fail_after(60):
                while not userver.started:
                    await anyio.sleep(0.02)
            async with httpx2.AsyncClient() as http:
                response = await http.post(f"http://127.0.0.1:{port}/mcp", json=body, headers={
                    "Accept": "application/json, text/event-stream", **headers})
            userver.should_exit = True
        return response.status_code

    def status(transport_security, headers):
        app = incidents.build_server().streamable_http_app(host="0.0.0.0", transport_security=transport_security)
        return anyio.run(answers, app, headers)

    rebinding = {"Host": "attacker.example:8765"}
    assert status(None, rebinding) not in (421, 403), "the SDK alone lets any Host through beyond loopback"
    assert status(settings, rebinding) == 421
    assert status(settings, {"Origin": "http://attacker.example"}) == 403


def test_serve_passes_the_guard_and_the_tokens_to_the_sdk(tmp_path, monkeypatch, capsys):
    """`serve` beyond loopback: tokens wired into the server, Host/Origin checks on, the 401s rewritten
    (listening and running are stubbed: no socket is opened)."""
    from mcp.server import MCPServer

    seen, built = {}, MCPServer.streamable_http_app

    def app(self, **options):
        seen.update(server=self, **options)
        return built(self, **options)

    monkeypatch.setattr(MCPServer, "streamable_http_app", app)
    monkeypatch.setattr(serving, "listen", lambda host, port: seen.update(listen=(host, port)) or FakeSocket())
    monkeypatch.setattr(serving, "_run", lambda app, listening, level: seen.update(app=app, level=level))
    serving.serve("incidents", "http", "0.0.0.0", 9, ("mcp.example.org",), tokens=str(write_tokens(tmp_path)))
    assert seen["listen"] == ("0.0.0.0", 9) and seen["host"] == "0.0.0.0" and seen["level"] == "warning"
    assert seen["transport_security"].enable_dns_rebinding_protection is True
    assert "mcp.example.org:*" in seen["transport_security"].allowed_hosts
    assert isinstance(seen["server"]._token_verifier, auth.StaticTokens)
    assert isinstance(seen["app"], auth.BearerChallenge)
    assert "bearer tokens cross the network in clear text" in capsys.readouterr().err


class FakeSocket:
    def getsockname(self):
        return ("0.0.0.0", 9)


# --- identity: stdio and in process ------------------------------------------------------------------


def test_the_user_given_to_serve_is_the_caller_over_stdio():
    from mcp import StdioServerParameters

    async def read_as(user: str) -> tuple[str, str]:
        argv = serving.command("incidents", "--user", user)
        async with connect_stdio(StdioServerParameters(command=argv[0], args=argv[1:])) as client:
            secret = await client.call_tool("get_incident", {"incidentId": "INC-204", "user": "ana"})
            note = await client.call_tool("add_incident_note", {
                "incidentId": "INC-103", "note": "Cache flushed.", "requestId": "0b0e6a52-2c44-4b7e-9a57-0c1f2f0f7a11",
                "user": "ana", "author": "ana"})
        return result_text(secret), note.structured_content["author"]

    def connect_stdio(params):
        from course_lib import wire

        return wire.connect(params, wire.HANDSHAKE)

    secret, author = anyio.run(read_as, "ben")
    assert secret == "Error executing tool get_incident: " + MISSING.format("INC-204"), "an argument is not a caller"
    assert author == "ben"


def test_a_server_built_with_tokens_refuses_calls_that_carry_none():
    server = incidents.build_server("ana", tokens={TOKENS["ana"]: "ana"})
    result = call(server, "get_incident", {"incidentId": "INC-101"})
    assert result["isError"] is True and "needs a bearer token" in text(result)


# --- identity over HTTP: tokens ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def served_with_tokens(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tokens")
    with Served("--tokens", str(write_tokens(folder)), "--store", str(folder / "s.db")) as served:
        yield served


@pytest.mark.parametrize("authorization, challenge", [
    (None, "Bearer"), ("Bearer", "Bearer"), (f"Basic {TOKENS['ana']}", "Bearer"), (TOKENS["ana"], "Bearer"),
    ("Bearer nope", 'Bearer error="invalid_token"'), (f"Bearer {TOKENS['ana']}x", 'Bearer error="invalid_token"')])
def test_a_request_without_a_valid_token_gets_401_with_no_detail(served_with_tokens, authorization, challenge):
    """RFC 6750 section 3.1: no credentials (or another scheme) gets a bare challenge with no error code; a bearer
    token that is not valid gets error="invalid_token"; neither gets a description."""
    import httpx2

    async def post():
        headers = {"Accept": "application/json, text/event-stream"}
        if authorization is not None:
            headers["Authorization"] = authorization
        async with httpx2.AsyncClient() as http:
            return await http.post(served_with_tokens.url, headers=headers, json={
                "jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": "get_incident", "arguments": {"incidentId": "INC-101"}}})

    response = anyio.run(post)
    assert response.status_code == 401
    assert response.headers.get_list("www-authenticate") == [challenge]
    assert response.text == ("" if challenge == "Bearer" else '{"error":"invalid_token"}')
    assert response.headers["content-length"] == str(len(response.content))


@pytest.mark.parametrize("era", ["2026-07-28", "2025-11-25"])
def test_each_token_reads_as_its_own_user_and_never_another_users_incident(served_with_tokens, era):
    async def probe(user: str) -> dict:
        async with connect(served_with_tokens.url, TOKENS[user], era) as client:
            seen = {}
            for incident in sorted(set(OWN.values()) | set(FORBIDDEN.values()) | {"INC-204", "INC-999"}):
                result = await client.call_tool("get_incident", {"incidentId": incident, "user": "ana"})
                seen[incident] = result_text(result) if result.is_error else result.structured_content["title"]
            listed = await client.call_tool("search_incidents", {"includeResolved": True})
            seen["search"] = [i["incidentId"] for i in listed.structured_content["incidents"]]
            return seen

    seen = {user: anyio.run(probe, user) for user in TOKENS}
    hidden = lambda incident: "Error executing tool get_incident: " + MISSING.format(incident)  # noqa: E731
    assert seen["ana"]["INC-204"] == "API credential leaked in a public repository"
    assert seen["ben"]["INC-204"] == hidden("INC-204") and seen["gil"]["INC-101"] == hidden("INC-101")
    assert seen["ana"]["INC-301"] == hidden("INC-301") and seen["ben"]["INC-301"] == hidden("INC-301")
    assert seen["gil"]["INC-301"] == "Checkout returns HTTP 500"
    assert all(seen[user]["INC-999"] == hidden("INC-999") for user in TOKENS)
    assert seen["ana"]["search"] == ["INC-204", "INC-103", "INC-102", "INC-101"]
    assert seen["ben"]["search"] == ["INC-103", "INC-102", "INC-101"] and seen["gil"]["search"] == ["INC-302", "INC-301"]


def test_a_session_opened_with_one_token_cannot_be_used_with_another(served_with_tokens):
    import httpx2

    async def hijack() -> tuple[int, str]:
        async with httpx2.AsyncClient() as http:
            headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
            opened = await http.post(served_with_tokens.url, headers={**headers, "Authorization": f"Bearer {TOKENS['ana']}"},
                                     json={"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                                         "protocolVersion": "2025-11-25", "capabilities": {},
                                         "clientInfo": {"name": "t", "version": "1"}}})
            session = opened.headers["mcp-session-id"]
            stolen = await http.post(served_with_tokens.url, headers={
                **headers, "Authorization": f"Bearer {TOKENS['gil']}", "mcp-session-id": session,
                "mcp-protocol-version": "2025-11-25"}, json={
                "jsonrpc": "2.0", "id": 2, "method": "tools/call",
                "params": {"name": "get_incident", "arguments": {"incidentId": "INC-101"}}})
            return stolen.status_code, stolen.text

    status, body = anyio.run(hijack)
    assert status in (403, 404) and "Checkout" not in body


# --- load over streamable HTTP: two processes, one store, three users ---------------------------------


def test_mixed_load_on_two_processes_sharing_a_store(tmp_path):
    tokens, path = write_tokens(tmp_path), tmp_path / "shared.db"
    with Served("--tokens", str(tokens), "--store", str(path)) as a, Served("--tokens", str(tokens), "--store",
                                                                             str(path)) as b:
        report = anyio.run(mixed_load, [a.url, b.url], 10, 20)
    assert report["protocol_errors"] == [] and report["wrong"] == []
    assert report["calls"] == 10 * 20 and len(report["notes"]) == 10 * 5
    assert check_notes_once(path, report["notes"]) == []


# --- guessing is slowed; tokens in clear text are warned about -----------------------------------------


def _asgi_401(challenge: auth.BearerChallenge, client: str) -> int:
    async def app(scope, receive, send):
        await send({"type": "http.response.start", "status": 401, "headers": []})
        await send({"type": "http.response.body", "body": b"no"})

    challenge.app = app
    sent = []

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "client": (client, 5555), "headers": [(b"authorization", b"Bearer wrong")]}
    asyncio.run(challenge(scope, None, send))
    return sent[0]["status"]


def test_repeated_wrong_tokens_are_answered_more_and_more_slowly_per_client():
    now, waits = [0.0], []

    async def sleep(seconds):
        waits.append(seconds)

    challenge = auth.BearerChallenge(None, clock=lambda: now[0], sleep=sleep)
    for _ in range(auth.FREE_FAILURES):
        assert _asgi_401(challenge, "10.0.0.9") == 401
    assert waits == []  # a person mistyping a few times is not slowed
    for _ in range(6):
        _asgi_401(challenge, "10.0.0.9")
    assert waits == [0.25, 0.5, 1.0, 2.0, 4.0, auth.MAX_DELAY]
    _asgi_401(challenge, "10.0.0.7")
    assert len(waits) == 6  # another client is not slowed by this one's guesses
    now[0] += auth.FAILURE_WINDOW + 1
    _asgi_401(challenge, "10.0.0.9")
    assert len(waits) == 6  # after a quiet minute the count starts again


@pytest.mark.parametrize("host, tokens, warns", [
    ("0.0.0.0", "tokens.txt", True), ("192.0.2.10", "tokens.txt", True),
    ("127.0.0.1", "tokens.txt", False), ("::1", "tokens.txt", False), ("localhost", None, False)])
def test_tokens_beyond_loopback_over_plain_http_are_warned_about(host, tokens, warns):
    warning = auth.clear_text_warning(host, tokens)
    assert (warning is not None) is warns
    if warns:
        assert "clear text" in warning and "TLS" in warning and "\n" not in warning


def test_course_token_prints_a_token_and_the_file_gets_only_its_hash(tmp_path):
    path = tmp_path / "tokens.txt"
    done = subprocess.run([sys.executable, "-m", "course_lib.cli", "token", "ben", "--file", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    token = done.stdout.strip()
    assert auth.weakness(token) is None and token not in path.read_text()
    assert auth.read_tokens(path) == {"sha256:" + hashlib.sha256(token.encode()).hexdigest(): "ben"}
    bad = subprocess.run([sys.executable, "-m", "course_lib.cli", "token", "ben", "--file", str(tmp_path / "no/such")],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "cannot write the token file" in bad.stderr
