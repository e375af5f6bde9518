"""Who is calling, and where a server may listen: bearer tokens from a file, and the binding rule.

Over HTTP the caller comes from a verified bearer token, checked by the SDK's own hooks
(`MCPServer(token_verifier=..., auth=...)`, which answers 401 with a WWW-Authenticate header
before any tool runs). Over stdio and in process the caller is the user the server was built
for. A tool never takes the caller from its arguments: a model could write any name there.

Token file: JSON `{"<token>": "<user>", ...}`, or one `<token> <user>` pair per line (blank
lines and lines starting with `#` are skipped). A token is written as itself, or better as
`sha256:<hex digest>` so the file holds no secret (`course token USER` writes such a line). A plain
token must be at least 32 characters with at least 128 bits of estimated entropy (the Shannon
entropy of its own characters times its length: `aaaa…` has none); `secrets.token_urlsafe(32)`
gives about 200. The server keeps only the sha256 of each token, and answers a client that keeps
sending wrong tokens more and more slowly.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import ipaddress
import json
import math
import os
import secrets
import socket
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from course_lib.errors import BadFile, CourseError

MIN_TOKEN_LENGTH = 32
MIN_TOKEN_BITS = 128
HASHED = "sha256:"
"""The prefix of a token file entry that holds a token's sha256 (hex) instead of the token."""
FREE_FAILURES = 5
"""Wrong tokens a client may send within `FAILURE_WINDOW` seconds before each 401 is delayed."""
FAILURE_WINDOW = 60.0
MAX_DELAY = 8.0
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
ISSUER = "http://127.0.0.1/"
"""`AuthSettings` needs an issuer URL; tokens here come from a file, so it is advertised nowhere."""


class TokenFileProblem(BadFile):
    """A token file that cannot be used; the message names the file and line, never a token."""


class BindingRefused(CourseError, ValueError):
    """A request to listen beyond this machine without tokens."""


def read_tokens(path: str | os.PathLike) -> dict[str, str]:
    """The token → user map in a token file (JSON object, or `token user` lines)."""
    try:
        content = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise TokenFileProblem(f"cannot read the token file {path}: {error.strerror}") from None
    if content.lstrip().startswith("{"):
        try:
            pairs = list(json.loads(content).items())
        except (json.JSONDecodeError, AttributeError):
            raise TokenFileProblem(f"{path} is not a JSON object of token: user pairs") from None
        where = [f"{path}, entry {n}" for n in range(1, len(pairs) + 1)]
    else:
        lines = [(n, line.split()) for n, line in enumerate(content.splitlines(), 1)
                 if line.strip() and not line.lstrip().startswith("#")]
        if any(len(words) != 2 for _, words in lines):
            bad = next(n for n, words in lines if len(words) != 2)
            raise TokenFileProblem(f"{path}, line {bad}: write one 'token user' pair per line")
        pairs, where = [tuple(words) for _, words in lines], [f"{path}, line {n}" for n, _ in lines]
    tokens: dict[str, str] = {}
    for (token, user), place in zip(pairs, where):
        if not isinstance(token, str) or not isinstance(user, str):
            raise TokenFileProblem(f"{place}: each token and user must be a string")
        problem = weakness(token)
        if problem:
            raise TokenFileProblem(f"{place}: {problem}")
        digest = digest_of(token)
        if digest in tokens:
            raise TokenFileProblem(f"{place}: the same token appears twice")
        tokens[digest] = user
    if not tokens:
        raise TokenFileProblem(f"{path} holds no tokens")
    return tokens


def entropy_bits(token: str) -> float:
    """An estimate of a token's entropy: the Shannon entropy of its own characters times its length."""
    counts = Counter(token)
    return -sum(n * math.log2(n / len(token)) for n in counts.values())


def weakness(token: str) -> str | None:
    """Why a token file entry is too weak to guard a server, or None (hashed entries are taken as given)."""
    if token.startswith(HASHED):
        digest = token[len(HASHED):]
        if len(digest) == 64 and all(c in "0123456789abcdef" for c in digest):
            return None
        return f"a hashed token is {HASHED} and 64 lowercase hex digits"
    if len(token) < MIN_TOKEN_LENGTH:
        return (f"each token must be at least {MIN_TOKEN_LENGTH} characters; make one with "
                f"python -c 'import secrets; print(secrets.token_urlsafe(32))'")
    if entropy_bits(token) < MIN_TOKEN_BITS:
        return (f"this token is too predictable (under {MIN_TOKEN_BITS} bits: repeated or few distinct "
                f"characters); make one with python -c 'import secrets; print(secrets.token_urlsafe(32))'")
    return None


def digest_of(token: str) -> str:
    """The `sha256:<hex>` form of a token (a hashed entry is returned as it is)."""
    return token if token.startswith(HASHED) else HASHED + hashlib.sha256(token.encode()).hexdigest()


def new_token(user: str) -> tuple[str, str]:
    """A fresh token (give it to `user`) and the token file line that holds only its hash."""
    token = secrets.token_urlsafe(32)
    return token, f"{digest_of(token)} {user}"


def load_tokens(tokens: str | os.PathLike | Mapping[str, str]) -> dict[str, str]:
    """A `sha256:<hex>` → user map from a token file path, or from a token → user mapping (hashed here)."""
    if isinstance(tokens, Mapping):
        return {digest_of(token): user for token, user in tokens.items()}
    return read_tokens(tokens)


class StaticTokens:
    """An SDK `TokenVerifier` for a fixed set of tokens, kept only as sha256 digests; the user is the subject."""

    def __init__(self, tokens: Mapping[str, str]):
        self._digests = {digest_of(token): user for token, user in tokens.items()}

    async def verify_token(self, token: str):
        """The `AccessToken` for a known token, else None (the SDK then answers 401)."""
        from mcp.server.auth.provider import AccessToken

        presented = digest_of(token) if not token.startswith(HASHED) else ""  # a digest is not a token
        for known, user in self._digests.items():  # compare_digest: no timing hint about near misses
            if hmac.compare_digest(known.encode(), presented.encode()):
                return AccessToken(token=token, client_id=user, subject=user, scopes=[])
        return None


def server_options(tokens: Mapping[str, str]) -> dict[str, Any]:
    """`MCPServer(...)` keywords that make its HTTP endpoint require one of `tokens`."""
    from mcp.server.auth.settings import AuthSettings

    return {"token_verifier": StaticTokens(tokens),
            "auth": AuthSettings(issuer_url=ISSUER, resource_server_url=None)}


class BearerChallenge:
    """ASGI middleware that makes the SDK's 401 answers follow RFC 6750 section 3.1, with no detail.

    A client that keeps sending wrong tokens (more than `FREE_FAILURES` in `FAILURE_WINDOW` seconds)
    waits before each further 401, 0.25 s doubling up to `MAX_DELAY`: guessing slows to a crawl.
    A request with no bearer token gets `WWW-Authenticate: Bearer` and no error code ("If the request
    lacks any authentication information ..., the resource server SHOULD NOT include an error code or
    other error information"); one with a token that is not valid gets `Bearer error="invalid_token"`.
    Neither carries a description, and the body says no more than the header.
    """

    def __init__(self, app, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep):
        self.app, self.clock, self.sleep = app, clock, sleep
        self._failures: dict[str, list[float]] = {}

    def delay(self, client: str) -> float:
        """Seconds to hold this client's next 401: none for the first few wrong tokens, then doubling."""
        now = self.clock()
        recent = [t for t in self._failures.get(client, []) if t > now - FAILURE_WINDOW]
        recent.append(now)
        self._failures[client] = recent[-64:]
        if len(self._failures) > 10_000:  # forget the quietest clients rather than grow without bound
            for stale in sorted(self._failures, key=lambda c: self._failures[c][-1])[:5_000]:
                del self._failures[stale]
        extra = len(recent) - FREE_FAILURES
        return 0.0 if extra <= 0 else min(0.25 * 2 ** (extra - 1), MAX_DELAY)

    async def __call__(self, scope, receive, send) -> None:
        if scope.get("type") != "http":
            return await self.app(scope, receive, send)
        client = (scope.get("client") or ("?", 0))[0]
        presented = any(key.lower() == b"authorization" and value[:7].lower() == b"bearer " and value[7:].strip()
                        for key, value in scope.get("headers", []))
        body = b'{"error":"invalid_token"}' if presented else b""
        rewriting = False

        async def answer(message) -> None:
            nonlocal rewriting
            if message["type"] == "http.response.start" and message.get("status") == 401:
                rewriting = True
                wait = self.delay(client)
                if wait:
                    await self.sleep(wait)
                kept = [(k, v) for k, v in message.get("headers", [])
                        if k.lower() not in (b"www-authenticate", b"content-length", b"content-type")]
                challenge = b'Bearer error="invalid_token"' if presented else b"Bearer"
                typed = [(b"content-type", b"application/json")] if body else []
                await send({**message, "headers": kept + typed + [(b"www-authenticate", challenge),
                                                                  (b"content-length", str(len(body)).encode())]})
            elif rewriting and message["type"] == "http.response.body":
                if not message.get("more_body"):
                    await send({"type": "http.response.body", "body": body})
            else:
                await send(message)

        await self.app(scope, receive, answer)


def token_user() -> str | None:
    """The user of the verified bearer token of the current HTTP request, if there is one."""
    from mcp.server.auth.middleware.auth_context import get_access_token

    token = get_access_token()
    return token.subject if token is not None else None


def is_loopback(host: str) -> bool:
    """Whether `host` names only this machine (127.0.0.0/8, ::1 or localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_binding(host: str, tokens: object) -> None:
    """Refuse to listen beyond this machine without tokens (BindingRefused says why, in one line)."""
    if not is_loopback(host) and not tokens:
        raise BindingRefused(
            f"refusing to listen on {host} without --tokens: anyone who can reach it would act as the "
            f"served user; pass --tokens FILE, or keep the default host 127.0.0.1")


def clear_text_warning(host: str, tokens: object) -> str | None:
    """The warning for tokens sent over plain HTTP beyond this machine, or None."""
    if tokens and not is_loopback(host):
        return (f"warning: on {host} bearer tokens cross the network in clear text (plain HTTP); put a "
                "TLS-terminating proxy (https) in front before anyone sends a token from another machine")
    return None


def transport_security(host: str, allow_hosts: Iterable[str] = ()):
    """Host/Origin checks that stay on for any host (the SDK turns them off beyond loopback unless told).

    Allowed: the loopback names, `host` itself unless it is a wildcard, this machine's hostname,
    and every name in `allow_hosts`, each on any port.
    """
    from mcp.server.transport_security import TransportSecuritySettings

    names = list(LOOPBACK_NAMES)
    if host not in ("0.0.0.0", "::", ""):
        names.append(host)
    if not is_loopback(host):
        names.append(socket.gethostname())
    names += list(allow_hosts)
    bracketed = [f"[{name}]" if ":" in name else name for name in dict.fromkeys(names)]
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[f"{name}:*" for name in bracketed] + bracketed,
        allowed_origins=[f"{scheme}://{name}:*" for name in bracketed for scheme in ("http", "https")]
        + [f"{scheme}://{name}" for name in bracketed for scheme in ("http", "https")],
    )
