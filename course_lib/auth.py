"""Who is calling, and where a server may listen: bearer tokens from a file, and the binding rule.

Over HTTP the caller comes from a verified bearer token, checked by the SDK's own hooks
(`MCPServer(token_verifier=..., auth=...)`, which answers 401 with a WWW-Authenticate header
before any tool runs). Over stdio and in process the caller is the user the server was built
for. A tool never takes the caller from its arguments: a model could write any name there.

Token file: JSON `{"<token>": "<user>", ...}`, or one `<token> <user>` pair per line (blank
lines and lines starting with `#` are skipped). Tokens are at least 16 characters.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import os
import socket
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from course_lib.errors import BadFile, CourseError

MIN_TOKEN_LENGTH = 16
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
        if not isinstance(token, str) or not isinstance(user, str) or len(token) < MIN_TOKEN_LENGTH:
            raise TokenFileProblem(f"{place}: each token must be a string of at least {MIN_TOKEN_LENGTH} characters")
        if token in tokens:
            raise TokenFileProblem(f"{place}: the same token appears twice")
        tokens[token] = user
    if not tokens:
        raise TokenFileProblem(f"{path} holds no tokens")
    return tokens


def load_tokens(tokens: str | os.PathLike | Mapping[str, str]) -> dict[str, str]:
    """A token → user map from a token file path, or a copy of a mapping."""
    return dict(tokens) if isinstance(tokens, Mapping) else read_tokens(tokens)


class StaticTokens:
    """An SDK `TokenVerifier` for a fixed token → user map; the user becomes the token's subject."""

    def __init__(self, tokens: Mapping[str, str]):
        self._tokens = dict(tokens)

    async def verify_token(self, token: str):
        """The `AccessToken` for a known token, else None (the SDK then answers 401)."""
        from mcp.server.auth.provider import AccessToken

        for known, user in self._tokens.items():  # compare_digest: no timing hint about near misses
            if hmac.compare_digest(known.encode(), token.encode()):
                return AccessToken(token=token, client_id=user, subject=user, scopes=[])
        return None


def server_options(tokens: Mapping[str, str]) -> dict[str, Any]:
    """`MCPServer(...)` keywords that make its HTTP endpoint require one of `tokens`."""
    from mcp.server.auth.settings import AuthSettings

    return {"token_verifier": StaticTokens(tokens),
            "auth": AuthSettings(issuer_url=ISSUER, resource_server_url=None)}


class BearerChallenge:
    """ASGI middleware that makes the SDK's 401 answers follow RFC 6750 section 3.1, with no detail.

    A request with no bearer token gets `WWW-Authenticate: Bearer` and no error code ("If the request
    lacks any authentication information ..., the resource server SHOULD NOT include an error code or
    other error information"); one with a token that is not valid gets `Bearer error="invalid_token"`.
    Neither carries a description, and the body says no more than the header.
    """

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope.get("type") != "http":
            return await self.app(scope, receive, send)
        presented = any(key.lower() == b"authorization" and value[:7].lower() == b"bearer " and value[7:].strip()
                        for key, value in scope.get("headers", []))
        body = b'{"error":"invalid_token"}' if presented else b""
        rewriting = False

        async def answer(message) -> None:
            nonlocal rewriting
            if message["type"] == "http.response.start" and message.get("status") == 401:
                rewriting = True
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
