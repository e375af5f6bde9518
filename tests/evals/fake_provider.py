"""A fake model provider on 127.0.0.1 (a free port) that records every request and answers from a script.

It speaks just enough of the OpenAI Chat Completions and Anthropic Messages APIs for the real SDK
clients: each request is recorded (path, headers, JSON body) and answered by the next scripted reply,
a (status, headers, body) triple (a body given as bytes is sent as it is, under a JSON content type), `DROP` to close the connection without an answer, or `STALL` to answer
nothing until the provider shuts down (a stuck endpoint, for timeouts).
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DROP = "drop"
STALL = "stall"


def openai_reply(calls: list[tuple[str, str]] = (), text: str | None = None, tokens=(10, 3)) -> tuple:
    """A chat completion whose message makes these calls, given as (name, arguments as a JSON *string*)."""
    message = {"role": "assistant", "content": text}
    if calls:
        message["tool_calls"] = [{"id": f"call_{i}", "type": "function",
                                  "function": {"name": name, "arguments": arguments}}
                                 for i, (name, arguments) in enumerate(calls)]
    return 200, {}, {"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "m",
                     "choices": [{"index": 0, "finish_reason": "tool_calls" if calls else "stop",
                                  "message": message}],
                     "usage": {"prompt_tokens": tokens[0], "completion_tokens": tokens[1],
                               "total_tokens": sum(tokens)}}


def anthropic_reply(calls: list[tuple[str, dict]] = (), text: str | None = None, tokens=(10, 3)) -> tuple:
    """A message whose content makes these tool_use calls, given as (name, input)."""
    content = [{"type": "text", "text": text}] if text else []
    content += [{"type": "tool_use", "id": f"toolu_{i}", "name": name, "input": arguments}
                for i, (name, arguments) in enumerate(calls)]
    return 200, {}, {"id": "msg_1", "type": "message", "role": "assistant", "model": "m", "content": content,
                     "stop_reason": "tool_use" if calls else "end_turn", "stop_sequence": None,
                     "usage": {"input_tokens": tokens[0], "output_tokens": tokens[1]}}


def error_reply(status: int, message: str = "no", headers: dict | None = None) -> tuple:
    return status, headers or {}, {"error": {"message": message, "type": "error"}}


class FakeProvider:
    """`with FakeProvider(replies) as fake:` serves at `fake.url`; `fake.requests` holds what came in."""

    def __init__(self, replies: list, repeat_last: bool = False, models: list[str] | None = ("fake-model",),
                 port: int = 0):
        self.replies, self.repeat_last = list(replies), repeat_last
        self.models = models
        self.listed = 0
        """How many times `GET .../models` was asked (not in `requests`): the models it lists are `models`, each
        with the current time as `created` (as llama.cpp's server does); None answers 404, as a runner without
        the endpoint."""
        self.requests: list[dict] = []
        self._lock = threading.Lock()
        self._released = threading.Event()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def do_GET(self):
                with fake._lock:
                    fake.listed += 1
                if not self.path.rstrip("/").endswith("/models") or fake.models is None:
                    self.answer(*error_reply(404, "not found"))
                    return
                entries = [{"id": name, "object": "model", "type": "model", "owned_by": "fake", "display_name": name,
                            "created": int(time.time()), "created_at": "2026-01-01T00:00:00Z"} for name in fake.models]
                self.answer(200, {}, {"object": "list", "data": entries, "has_more": False,
                                      "first_id": fake.models[0] if fake.models else None,
                                      "last_id": fake.models[-1] if fake.models else None})

            def answer(self, status, headers, payload):
                data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()  # bytes: sent as is
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self):
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                with fake._lock:
                    fake.requests.append({"path": self.path, "body": body,
                                          "headers": {k.lower(): v for k, v in self.headers.items()}})
                    if fake.replies:
                        reply = fake.replies.pop(0) if len(fake.replies) > 1 or not fake.repeat_last \
                            else fake.replies[0]
                    else:
                        reply = error_reply(500, "the script ran out")
                if reply == STALL:
                    fake._released.wait()
                    self.close_connection = True
                    return
                if reply == DROP:
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                self.answer(*reply)

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> FakeProvider:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self._released.set()
        self.server.shutdown()
        self.server.server_close()

    @property
    def bodies(self) -> list[dict]:
        return [request["body"] for request in self.requests]


def closed_port() -> int:
    """A loopback port where nothing listens (bound, then released)."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
