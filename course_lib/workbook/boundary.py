"""The grading boundary: the learner's answer stays in the submission's kernel, the checker runs in the grader.

Under `course check` and `course grade` a checker reaches the answer only through the helpers of
`checks.core`, and behind them through this module. The grader listens on one Unix socket in the kernel's run
folder (`grader.sock`); the kernel's agent (`start_agent`, run in the kernel before any of its cells) connects
to it. Nothing else connects anywhere: the grader never dials a path the kernel could choose.

What crosses, as one JSON line of at most `MAX_LINE` bytes per message:
- data (None, bool, int, float, str, list, dict with str keys) as itself; tuples, sets, bytes, other dicts and
  non-finite floats tagged, so they come back as what they were;
- data types of the course and the SDK (pydantic models, dataclasses and enums defined in `course_lib`, `mcp` or
  `mcp_types`) as their data, rebuilt on the other side;
- anything else by reference, as a proxy: a function or method (calling it calls across), an awaitable, an MCP
  server (reached over a real MCP transport: JSON-RPC, one message per line, as stdio frames it), or an object;
- an exception as its type name and message.

The grader treats everything from the kernel as hostile data: lines over `MAX_LINE`, nesting deeper than
`MAX_DEPTH`, unknown tags and types that may not cross break the bridge (`BoundaryError`), and a broken MCP
connection taints the check that used it (`GraderBridge.broken`). The kernel may use only what the checker passed
it: the public methods and data attributes of those objects, whose results must be data. Time limits and the
death of the kernel are the runner's (`runner.check`): it stops the kernel, which closes every connection here.
"""

from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import enum
import inspect
import itertools
import json
import math
import os
import re
import secrets
import socket
import sys
import threading
from collections import Counter
from collections.abc import Iterator, MutableMapping
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

from course_lib.errors import CourseError

MAX_LINE = 32 << 20
"""Bytes in one bridge message or one MCP frame."""
MAX_IN_FLIGHT = 2 * MAX_LINE
"""Bytes of requests from the other side received and not yet answered (queued, running, or waiting for it to
read the answer): past this the bridge stops reading and closes, so a kernel that floods the grader with
requests and never reads the replies costs it at most this much (plus one message being read)."""
MAX_VALUES = 1_000_000
"""Values (lists, dicts and the items in them, counted by their brackets and commas before the message is parsed)
in one bridge message: a bigger answer (`[{}] * 10_500_000` is 32 MB of JSON and over 2 GB once decoded) is
refused unparsed, and the check that asked for it fails."""
MAX_DEPTH = 64
"""Nesting of lists, dicts and tagged values in one message."""
MAX_RESULT = 4 << 20
"""Bytes of one message the grader reads from the kernel during a check (an MCP result of the learner's server, a
function's answer). Grading every solution of the course, the largest such message was 13 kB with 729 values, and
the most one check read was 0.23 MB with 13,201 values (measured for issue 29's C21)."""
MAX_RESULT_VALUES = 100_000
"""Values (counted as for `MAX_VALUES`) in one such message: decoded, 100,000 empty dicts are about 10 MB."""
MAX_CHECK_BYTES = 32 << 20
"""Bytes the grader reads from the kernel in one check (every MCP message and bridge message together): an answer
that keeps returning results fails its check once they come to more, so however many results a checker keeps, they
cost the grader a bounded amount."""
MAX_CHECK_VALUES = 1_000_000
"""Values in the messages of one check together (a decoded value costs the grader far more than its bytes)."""
FORWARD_BYTES = 256 << 10
"""Bytes of one forwarded call's request (a `FORWARDED` function's arguments): a bigger one is refused unrun. A
forwarded call costs the grader about in proportion to what it is given (`host.wrap` of 3.9 MB of zero-width
spaces took 11 s and 400 MB; of 400,000 of them, 1.2 MB, 0.95 s and 90 MB), and the course's own calls send a
few kB (lesson 07's longest text is one document three times over)."""
FORWARD_SECONDS = 10.0
"""How long one forwarded call may run in the grader: past it the kernel is stopped (`GraderBridge.on_overrun`)
and the grader's worker is not used again (`leftovers`). A call of `FORWARD_BYTES` takes under a second."""
FORWARDED_AT_ONCE = 1
"""Forwarded calls of one kernel the grader runs at the same time (the others wait their turn): however many
threads a submission starts, its calls cost the grader at most one at a time."""
MAX_CONNECTIONS = 5000
"""Connections one kernel may open to the grader (MCP sessions included) before the grader stops listening."""
HELLO_SECONDS = 10.0
PORTABLE_MODULES = ("course_lib", "mcp", "mcp_types")
"""Packages whose data types cross by value (everything else crosses by reference)."""
FORWARDED = {"course_lib.servers.weather": ("daily_forecast",),
             "course_lib.servers.orders": ("customer_order", "not_found_message", "unavailable_message"),
             "course_lib.contract": ("diff", "_compare_tool", "_compare_value", "_compare_object", "_facts", "_judge"),
             "course_lib.host": ("careful_input", "wrap", "cap", "fingerprint"),
             "course_lib.review": ("is_valid_name", "orders", "persuades", "texts_read"),
             "mcp.shared.tool_name_validation": ("validate_tool_name",)}
"""Functions a check forbids ("without calling X"): in a graded kernel each
is a stub that sends every call to the grader, which runs it and so counts it (`checks.core.watched`): a count
made in the kernel would be the submission's word. The kernel's course_lib holds no body of the course's (its
files hold the stub too, `release.forwarding_stubs`), so no reload, fresh import or exec of a file gets one back.
The SDK's files are the installed package's, which the kernel can read: a copy made from one is the SDK's source
pasted into the answer, which no check can tell from the learner's own code; so is its data
(`tool_name_validation.TOOL_NAME_REGEX`, the pattern validate_tool_name uses, which a 1.4 answer may use: it is the
installed SDK's, and a check cannot tell it from the same pattern the learner wrote).

Their arguments are data, or cross by reference: `orders.customer_order`'s store, an object of the kernel's, is a
proxy in the grader whose methods run in the kernel (`_Reached`: the grader's copy of customer_order calls
`store.record` back there while the kernel waits on the forwarded call), and a store the grader lent comes back as
the grader's own object.

A check counts more than the calls made while it runs: the grader counts every forwarded call of the kernel, and a
watch adds those every cell of the notebook made before it (`GraderBridge.end_check`, `before_check`), so a result
fetched when a cell ran and kept for later is a call too (red team 6 cached 112 forecasts that way for 1.3)."""
EARLIER_BYTES = 8 << 20
"""The most the grader keeps of the arguments of forwarded calls made outside a check, for a later check's rule
(`Earlier`, as JSON text): past it, a cell's calls are kept without arguments (one entry for a run of them), and
every rule counts those."""


@dataclasses.dataclass(frozen=True)
class Earlier:
    """A forwarded call made before the running check: its arguments as plain data (`_plain`; None: not kept, past
    `EARLIER_BYTES`), whether an earlier exercise's check caused it (else a cell made it), how many calls it stands
    for."""

    values: Any
    by_check: bool
    times: int = 1


def _plain(value: Any, depth: int = 0) -> Any:
    """`value` as JSON data for comparing (`checks.core.asked_about`): a model or dataclass as its fields (told by
    its type: nothing here asks a kernel object's proxy anything), what else is not JSON data None."""
    from pydantic import BaseModel

    if depth > 20:
        return None
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, BaseModel):  # a course or SDK model, rebuilt here by value (never a kernel object's proxy)
        return _plain(value.model_dump(mode="json", by_alias=True), depth + 1)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _plain(dataclasses.asdict(value), depth + 1)
    if isinstance(value, (list, tuple)):
        return [_plain(item, depth + 1) for item in value]
    if isinstance(value, dict):
        return {str(key): _plain(item, depth + 1) for key, item in value.items()}
    return None


CALLED_ON_ITS_OWN = ("tool_name_validation.validate_tool_name",)
"""Forwarded functions the SDK calls by itself (every tool a cell registers has its name validated): only the calls
made while a check runs count for them, not a cell's (`GraderBridge.end_check`). 1.4, which forbids it, asks about
names it generates as it runs, so no answer kept from earlier can be one."""
WITHHELD = {"course_lib.review": ("SPEC_NAME", "_ORDERS", "_PERSUASION")}
"""Module data only forwarded functions use (1.4's name rule, 7.2's rules): absent from the kernel's copy of course_lib."""
CUT = {"course_lib.servers.incidents": ("Store.add_note_once", "Store.visible"),
       "course_lib.servers.workspace": ("_tools.<locals>.search_tickets_tool",)}
"""Course code that is an exercise's answer and that no setup cell needs ("Class.method" or "function"): in the
kernel's copy of course_lib its body only raises and its docstring is gone (`release.cut_bodies`), its signature
kept. A rule
that forbids the lent store's `add_note_once` (5.1) or `visible` (5.3) is watched in the grader; without this the
kernel's own `incidents.Store` ran the same code on a `self` of the learner's whose `append_note` or `lookup` was the
lent store's, unseen (red team rtgrade7 c12, c13). (3.4's `failures.require_known_arguments` stays: an answer may
use it, as it uses `failures.cancel`; tests/answers/right/ex_03_4_course_helper.py.)
The workspace's search_tickets tool is 6.1's answer (its definition is the lean one, 194 tokens): 6.2 and 6.4
register it (`LESSON_TOOLS_KEPT`) but their checks never call it or read its description, so its body goes (c21: the
lesson tool with 6 words added passed 6.1, beyond what `runner.NEAR_COPY_WORDS` compares), and its docstring, the
lean definition's prose (rtgrade9 F3: read at run time from the cut function, 5 words added, it passed 6.1); in a
graded kernel it lists without a description.
So a method of the kernel's own `Store` that uses these (`append_note`, `get`) fails there too: only lesson cells
that show the naive way use one, and their output is not graded."""
LESSON_TOOLS_CUT = "course_lib.servers."
"""Modules (by this prefix) whose tools (functions registered with `@tool(...)` or `@server.tool(...)`) have no body in
the kernel's copy of course_lib: a graded kernel builds a lesson server only to list it (the setup and lesson cells
show tool cards), so its tools list as the course's do and every call of one is a tool error. A lesson server, or a
lesson tool's function wrapped in a tool of the learner's, reached however (a computed factory name, red team
rtgrade7 c05, c06, c11), answers no exercise in a graded kernel. `LESSON_TOOLS_KEPT` keeps theirs."""
LESSON_TOOLS_KEPT = ("course_lib.servers.workspace",)
"""Lesson tools a graded answer runs: 6.2 and 6.4 register the workspace server's own tools (`workspace.register`),
and their checks call get_ticket and add_ticket_comment (search_tickets is cut: `CUT`)."""
_TYPE_PATH = re.compile(r"[A-Za-z_][\w.]{0,200}:[A-Za-z_][\w.]{0,200}")
_NAME = re.compile(r"[A-Za-z_]\w{0,79}")
_DOTTED = re.compile(r"[A-Za-z_][\w.<>]{0,99}")


_serving = 0
"""Requests from kernels this process is handling right now, of every bridge (`leftovers`)."""
_serving_lock = threading.Lock()


def leftovers() -> int:
    """How many requests from kernels this process is still handling. Python cannot stop a thread, so a grader
    worker whose notebook ended with one still running (a forwarded call, a call of something the checker lent)
    is discarded instead of grading the next notebook beside it (`grading._serve`)."""
    return _serving


class BoundaryError(CourseError):
    """A message broke the bridge's rules (size, shape, nesting, a type that may not cross)."""


class AnswerTooLarge(BoundaryError):
    """An answer from the other side with more than `MAX_VALUES` values: refused unparsed."""


class BridgeClosed(BoundaryError):
    """The other side went away: the kernel died or was stopped, or the connection broke."""


# --- values: encode on one side, decode on the other -------------------------------------------------------


def _type_path(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


def _portable(cls: type) -> bool:
    """Whether instances of `cls` cross by value: a course or SDK data type the other side can name."""
    if cls.__module__.split(".")[0] not in PORTABLE_MODULES or "<" in cls.__qualname__ or "[" in cls.__qualname__:
        return False
    from pydantic import BaseModel

    return issubclass(cls, (BaseModel, enum.Enum)) or dataclasses.is_dataclass(cls)


def _resolve(path: Any, trusted: bool) -> type:
    """The class a type path names; from hostile data only a portable class of a module already loaded."""
    if not isinstance(path, str) or not _TYPE_PATH.fullmatch(path):
        raise BoundaryError("a malformed type name")
    module_name, qualname = path.split(":")
    module = sys.modules.get(module_name)
    if module is None and trusted:
        import importlib

        module = importlib.import_module(module_name)
    found: Any = module
    for part in qualname.split(".") if module is not None else ():
        found = getattr(found, part, None)
    if not isinstance(found, type) or not _portable(found):
        raise BoundaryError(f"a {qualname.rsplit('.', 1)[-1]} cannot cross the grading boundary")
    return found


class _Codec:
    """JSON-able forms of values, for one side of the bridge (`_Endpoint` supplies references)."""

    trusted_peer = False

    def encode(self, value: Any, by_reference: bool, depth: int = 0) -> Any:
        if depth > MAX_DEPTH:
            raise BoundaryError(f"a value nested more than {MAX_DEPTH} levels deep")
        down = depth + 1
        if value is None or isinstance(value, bool):
            return value
        if isinstance(value, _Proxy) and value._endpoint is self:
            return {"$": "back", "id": value._id}
        cls = type(value)
        if isinstance(value, enum.Enum) and _portable(cls):
            return {"$": "enum", "type": _type_path(cls), "value": self.encode(value.value, False, down)}
        if isinstance(value, int) and not isinstance(value, enum.Enum):
            return int(value)
        if isinstance(value, float):
            return float(value) if math.isfinite(value) else {"$": "float", "repr": repr(float(value))}
        if isinstance(value, str) and not isinstance(value, enum.Enum):
            return str(value)
        if isinstance(value, list):
            return [self.encode(item, by_reference, down) for item in value]
        if isinstance(value, (tuple, set, frozenset)) and cls in (tuple, set, frozenset):
            items = sorted(value, key=repr) if cls is not tuple else value
            return {"$": cls.__name__, "items": [self.encode(item, by_reference, down) for item in items]}
        if isinstance(value, dict) and cls is dict:
            if all(isinstance(key, str) for key in value) and "$" not in value:
                return {key: self.encode(item, by_reference, down) for key, item in value.items()}
            return {"$": "dict", "items": [[self.encode(k, by_reference, down), self.encode(v, by_reference, down)]
                                           for k, v in value.items()]}
        if isinstance(value, (bytes, bytearray)):
            import base64

            return {"$": "bytes", "b64": base64.b64encode(bytes(value)).decode()}
        if _portable(cls):
            return self._encode_data(value, by_reference, down)
        if not by_reference:
            raise PermissionError(f"a {cls.__name__} cannot cross the grading boundary (only data can)")
        return self._reference(value)

    def _encode_data(self, value: Any, by_reference: bool, depth: int) -> dict:
        cls = type(value)
        if dataclasses.is_dataclass(cls):
            fields = {field.name: self.encode(getattr(value, field.name), by_reference, depth)
                      for field in dataclasses.fields(value)}
            return {"$": "dataclass", "type": _type_path(cls), "fields": fields}
        return {"$": "model", "type": _type_path(cls), "json": value.model_dump_json(by_alias=True, round_trip=True)}

    def decode(self, data: Any, depth: int = 0) -> Any:
        if depth > MAX_DEPTH:
            raise BoundaryError(f"a value nested more than {MAX_DEPTH} levels deep")
        down = depth + 1
        if data is None or isinstance(data, (bool, int, float, str)):
            return data
        if isinstance(data, list):
            return [self.decode(item, down) for item in data]
        if not isinstance(data, dict):
            raise BoundaryError("a value of an unknown JSON type")
        tag = data.get("$")
        if tag is None:
            return {key: self.decode(item, down) for key, item in data.items()}
        try:
            return self._decode_tagged(tag, data, down)
        except (BoundaryError, PermissionError):
            raise
        except Exception as error:  # a constructor or validator refused the data
            raise BoundaryError(f"a {tag} value the other side cannot rebuild: {type(error).__name__}") from None

    def _items(self, data: dict, depth: int) -> list:
        items = data.get("items")
        if not isinstance(items, list):
            raise BoundaryError("a tagged value without its items")
        return [self.decode(item, depth) for item in items]

    def _decode_tagged(self, tag: Any, data: dict, depth: int) -> Any:
        if tag in ("tuple", "set", "frozenset"):
            return {"tuple": tuple, "set": set, "frozenset": frozenset}[tag](self._items(data, depth))
        if tag == "dict":
            pairs = self._items(data, depth)
            if not all(isinstance(pair, list) and len(pair) == 2 for pair in pairs):
                raise BoundaryError("a dict whose items are not pairs")
            return {key: value for key, value in pairs}
        if tag == "float":
            text = data.get("repr")
            if text not in ("nan", "inf", "-inf"):
                raise BoundaryError("a float that is not nan or infinite")
            return float(text)
        if tag == "bytes":
            import base64

            return base64.b64decode(str(data.get("b64", "")), validate=True)
        if tag == "enum":
            return _resolve(data.get("type"), self.trusted_peer)(self.decode(data.get("value"), depth))
        if tag == "model":
            cls = _resolve(data.get("type"), self.trusted_peer)
            if not isinstance(data.get("json"), str):
                raise BoundaryError("a model without its JSON")
            return cls.model_validate_json(data["json"])
        if tag == "dataclass":
            cls = _resolve(data.get("type"), self.trusted_peer)
            fields = data.get("fields")
            if not isinstance(fields, dict):
                raise BoundaryError("a dataclass without its fields")
            known = {field.name: field for field in dataclasses.fields(cls)}
            values = {name: self.decode(value, depth) for name, value in fields.items() if name in known}
            made = cls(**{name: value for name, value in values.items() if known[name].init})
            for name, value in values.items():
                if not known[name].init:
                    object.__setattr__(made, name, value)
            return made
        if tag == "ref":
            return self._proxy(data)
        if tag == "back":
            return self._own(data.get("id"))
        raise BoundaryError("a value with an unknown tag")

    # supplied by _Endpoint
    def _reference(self, value: Any) -> dict:
        raise NotImplementedError

    def _proxy(self, data: dict) -> Any:
        raise NotImplementedError

    def _own(self, number: Any) -> Any:
        raise NotImplementedError


# --- exceptions ----------------------------------------------------------------------------------------------


class LearnerRaised(Exception):
    """An exception the learner's code raised in the kernel: its type name and message, nothing else of it."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


LEARNER_MESSAGE = 500
"""The most characters of a learner's exception message the grader keeps (a check quotes it to the student; a
report shows it escaped, `outcomes.printable`)."""
_BUILTIN_BASES = (ValueError, TypeError, RuntimeError, AttributeError, LookupError, IndexError, ArithmeticError,
                  ZeroDivisionError, AssertionError, NameError, RecursionError, OSError, PermissionError,
                  FileNotFoundError, KeyError, TimeoutError)
_learner_classes: dict[str, type] = {}


def learner_exception(path: Any, message: Any) -> LearnerRaised:
    """The grader's stand-in for an exception raised in the kernel: a `LearnerRaised` with the same type name.

    `path` is the type's "module:qualname". A `NotImplementedError` (a stub) is one too, so a check reports
    "not done"; a few builtin types and the course's own error types keep that base, so `except ValueError`
    or `except CheckFailed` catches here what it would in process. Nothing else of the kernel's type is used.
    """
    text = path if isinstance(path, str) else ""
    module_name, _, qualname = text.rpartition(":") if ":" in text else ("", "", text)
    name = qualname.rpartition(".")[2]
    name = name if _NAME.fullmatch(name) else "Exception"
    key = f"{module_name}:{name}"
    if key not in _learner_classes:
        bases: tuple[type, ...] = (LearnerRaised,)
        builtin = {cls.__name__: cls for cls in (NotImplementedError, *_BUILTIN_BASES)}.get(name)
        course = getattr(sys.modules.get(module_name), qualname, None) if module_name.startswith("course_lib.") \
            and _TYPE_PATH.fullmatch(text) else None
        if builtin is not None and module_name in ("", "builtins"):
            bases += (builtin,)
        elif isinstance(course, type) and issubclass(course, Exception) and not _controls_a_check(course):
            bases += (course,)
        _learner_classes[key] = type(name, bases, {"__module__": module_name or "learner"})
    return _learner_classes[key](message[:LEARNER_MESSAGE] if isinstance(message, str) else "")


def _controls_a_check(cls: type) -> bool:
    """Whether exceptions of `cls` steer a checker (a check's failure, "not done", "enough broken rules") or are the
    grader's own (`course_lib.workbook`: BridgeClosed, KernelDied): types the grader never rebuilds from what the
    kernel names, so a learner's exception is never read as one (red team 6 had its text reported as the grader's)."""
    from course_lib.errors import CheckFailed, ExerciseNotDone

    return issubclass(cls, (CheckFailed, ExerciseNotDone)) or cls.__module__.startswith(("course_lib.checks",
                                                                                         "course_lib.workbook"))


def _exception_data(error: BaseException) -> dict:
    cls = type(error)
    return {"type": f"{cls.__module__}:{cls.__qualname__}", "message": str(error)[:4000]}


def _trusted_exception(data: Any) -> BaseException:
    """On the kernel side: the grader's exception rebuilt as its own type where possible (a ToolError stays one)."""
    data = data if isinstance(data, dict) else {}
    message = str(data.get("message", ""))
    module_name, _, qualname = str(data.get("type", "builtins:RuntimeError")).partition(":")
    try:
        import importlib

        found: Any = importlib.import_module(module_name)
        for part in qualname.split("."):
            found = getattr(found, part)
        if isinstance(found, type) and issubclass(found, Exception):
            return found(message)
    except Exception:  # an exception type this side cannot build: keep its name in the message
        pass
    return RuntimeError(f"{qualname}: {message}")


# --- the wire: one JSON message per line ------------------------------------------------------------------


TCP = not hasattr(socket, "AF_UNIX")
"""Where there are no Unix sockets (Windows), the grader listens on loopback TCP instead: no sandbox there."""
Address = str | tuple[str, int]


def _connect(address: Address) -> socket.socket:
    """A blocking connection to the grader's listener (a Unix socket path, or a loopback (host, port))."""
    if isinstance(address, str):
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        connection.connect(address)
        return connection
    return socket.create_connection(tuple(address))


async def _open_stream(address: Address) -> Any:
    import anyio

    if isinstance(address, str):
        return await anyio.connect_unix(address)
    return await anyio.connect_tcp(address[0], address[1])


async def _stream_of(connection: socket.socket) -> Any:
    """An anyio stream over an accepted socket (Unix or TCP)."""
    from anyio.abc import SocketStream, UNIXSocketStream

    if connection.family == getattr(socket, "AF_UNIX", None):
        return await UNIXSocketStream.from_socket(connection)
    return await SocketStream.from_socket(connection)


def _values(line: bytes) -> int:
    """About how many values (lists, dicts and the items in them) a JSON line holds, counted without parsing it."""
    return line.count(b",") + line.count(b"[") + line.count(b"{")


class _Lines:
    """A connected stream socket carrying one JSON message per line, sent whole from any thread."""

    def __init__(self, connection: socket.socket):
        self.socket = connection
        self._reader = connection.makefile("rb")
        self._lock = threading.Lock()
        self.last_size = self.last_values = 0

    def send(self, message: Any) -> None:
        data = json.dumps(message, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode() + b"\n"
        if len(data) > MAX_LINE:
            raise BoundaryError(f"a message of {len(data):,} bytes, over the limit of {MAX_LINE:,}")
        with self._lock:
            self.socket.sendall(data)

    def receive(self) -> Any:
        line = self._reader.readline(MAX_LINE + 1)
        if not line:
            raise BridgeClosed("the other side closed the connection")
        if not line.endswith(b"\n"):
            raise BoundaryError(f"a message over the limit of {MAX_LINE:,} bytes")
        self.last_size = len(line)
        self.last_values = values = _values(line)
        if values > MAX_VALUES:  # refused before it is parsed; a reply says so to whoever waits for it
            found = re.match(rb'\{"reply":(\d{1,18}),', line)
            if found is None:
                raise BoundaryError(f"a message of more than {MAX_VALUES:,} values")
            return {"reply": int(found.group(1)), "tooLarge": values}
        try:
            return json.loads(line)
        except (ValueError, RecursionError):
            raise BoundaryError("a message that is not JSON") from None

    def close(self) -> None:
        for step in (lambda: self.socket.shutdown(socket.SHUT_RDWR), self._reader.close, self.socket.close):
            try:
                step()
            except OSError:
                pass


class _Endpoint(_Codec):
    """One side of the bridge: requests both ways over one connection, objects it lends by number."""

    side = "endpoint"

    def __init__(self, lines: _Lines | None, workers: int):
        self._lines = lines
        self._objects: dict[int, Any] = {}
        self._numbers: dict[int, int] = {}  # id(object) -> number, so one object keeps one number
        self._count = itertools.count(1)
        self._pending: dict[int, Future] = {}
        self._lock = threading.Lock()
        self._in_flight = 0  # bytes of the other side's requests not yet answered
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix=f"course-{self.side}")
        self.closed: str | None = None
        self._reader = threading.Thread(target=self._read, name=f"course-{self.side}-reader", daemon=True)

    def start(self) -> None:
        self._reader.start()

    def request(self, op: str, **fields: Any) -> Any:
        """Ask the other side to do `op`; its value decoded, or its exception raised here."""
        future: Future = Future()
        with self._lock:
            if self.closed:
                raise BridgeClosed(self.closed)
            number = next(self._count)
            self._pending[number] = future
        try:
            if self._lines is None:
                raise OSError("not connected")
            self._lines.send({"call": number, "op": op, **fields})
        except OSError:
            self.close("the connection to the other side broke")
        reply = future.result()
        if "refused" in reply:
            raise AnswerTooLarge(reply["refused"])
        if "tooLarge" in reply:
            raise AnswerTooLarge(f"the answer was too large: about {reply['tooLarge']:,} values (lists, dicts and "
                                 f"their items), over the grader's limit of {MAX_VALUES:,}")
        if "error" in reply:
            raise self._exception(reply["error"])
        return self.decode(reply.get("value"))

    def close(self, reason: str) -> None:
        with self._lock:
            if self.closed:
                return
            self.closed = reason
            pending, self._pending = self._pending, {}
        if self._lines is not None:
            self._lines.close()
        for future in pending.values():
            future.set_exception(BridgeClosed(reason))
        self._pool.shutdown(wait=False, cancel_futures=True)

    def _read(self) -> None:
        try:
            while True:
                message = self._lines.receive()
                if not isinstance(message, dict):
                    raise BoundaryError("a message that is not an object")
                refused = self._metered(self._lines.last_size, self._lines.last_values)
                if refused and isinstance(message.get("reply"), int):
                    message = {"reply": message["reply"], "refused": refused}
                elif refused and isinstance(message.get("call"), int):
                    message = {"call": message["call"], "op": "refused", "reason": refused}
                if "reply" in message:
                    with self._lock:
                        future = self._pending.pop(message["reply"], None) if isinstance(message["reply"], int) \
                            else None
                    if future is None:
                        raise BoundaryError("a reply to nothing that was asked")
                    future.set_result(message)
                elif isinstance(message.get("call"), int) and isinstance(message.get("op"), str):
                    size = self._lines.last_size
                    with self._lock:
                        self._in_flight += size
                        flooded = self._in_flight > MAX_IN_FLIGHT
                    if flooded:
                        raise BoundaryError(f"more than {MAX_IN_FLIGHT >> 20} MB of requests sent without waiting "
                                            "for their answers")
                    self._pool.submit(self._answer, message, size)
                else:
                    raise BoundaryError("a message that is neither a request nor a reply")
        except BridgeClosed as closed:
            self.close(str(closed))
        except BoundaryError as error:
            self.close(f"the other side broke the bridge's rules: {error}")
        except (OSError, ValueError):
            self.close("the connection to the other side broke")
        except RuntimeError:  # the pool is shutting down
            self.close("the bridge was closed")

    def _metered(self, size: int, values: int) -> str | None:
        """A reason to refuse a message of `size` bytes and `values` values just read, or None (see GraderBridge)."""
        return None

    def _answer(self, message: dict, size: int = 0) -> None:
        try:
            try:
                if message["op"] == "refused":
                    raise AnswerTooLarge(message["reason"])
                reply = {"reply": message["call"], "value": self.handle(message["op"], message)}
            except BaseException as error:  # every failure goes back as data, never kills this side
                reply = {"reply": message["call"], "error": _exception_data(error)}
            try:
                self._lines.send(reply)
            except BoundaryError as error:
                self._lines.send({"reply": message["call"], "error": _exception_data(error)})
            except OSError:
                self.close("the connection to the other side broke")
        finally:
            with self._lock:
                self._in_flight -= size

    def handle(self, op: str, message: dict) -> Any:
        raise NotImplementedError

    def _exception(self, data: Any) -> BaseException:
        raise NotImplementedError

    # objects lent to the other side

    def _lend(self, value: Any) -> int:
        with self._lock:
            self._may_lend()
            number = self._numbers.get(id(value))
            if number is None or self._objects.get(number) is not value:
                if len(self._objects) >= 100_000:
                    raise BoundaryError("too many objects lent across the boundary")
                number = next(self._count)
                self._objects[number], self._numbers[id(value)] = value, number
            return number

    def _may_lend(self) -> None:
        """Raise BoundaryError if nothing may be lent now (call with the lock held; see GraderBridge)."""

    def _own(self, number: Any) -> Any:
        if not isinstance(number, int) or number not in self._objects:
            raise BoundaryError("a reference to an object this side never lent, or lent to a check that has ended "
                                "(an object a check passes your code is yours only while that check runs: keep "
                                "nothing of it for later)")
        return self._objects[number]

    def _end_loans(self, first: int) -> None:
        """Take back every object lent under a number from `first` on: the other side's references to them now
        reach nothing (`_own` refuses them). Call with the lock held."""
        for number in [number for number in self._objects if number >= first]:
            self._numbers.pop(id(self._objects.pop(number)), None)

    def _args(self, message: dict) -> tuple[list, dict]:
        args, kwargs = self.decode(message.get("args", [])), self.decode(message.get("kwargs", {}))
        if not isinstance(args, list) or not isinstance(kwargs, dict) or not all(isinstance(k, str) for k in kwargs):
            raise BoundaryError("call arguments that are not a list and a dict")
        return args, kwargs


class _Loop:
    """An event loop in a thread of its own, started on first use, where MCP connections are served."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._context: Any = None
        self._portal: Any = None

    def start(self, task: Any) -> None:
        from anyio.from_thread import start_blocking_portal

        with self._lock:
            if self._portal is None:
                self._context = start_blocking_portal(name="course-mcp")
                self._portal = self._context.__enter__()
            self._portal.start_task_soon(task)

    def stop(self) -> None:
        with self._lock:
            portal, context, self._portal, self._context = self._portal, self._context, None, None
        if portal is not None:
            try:
                portal.call(portal.stop, True)  # cancel what still runs: its connections are gone
            except RuntimeError:
                pass
            context.__exit__(None, None, None)


class _Proxy:
    """Something that lives on the other side of the bridge."""

    def __init__(self, endpoint: _Endpoint, number: int, type_name: str):
        self._endpoint, self._id, self.type_name = endpoint, number, type_name

    def __repr__(self) -> str:
        return f"<{self.type_name} on the other side of the grading boundary>"


def _kind(value: Any) -> str:
    from mcp.server import MCPServer
    from mcp.server.lowlevel import Server

    if isinstance(value, LentMapping):
        return "mapping"
    if isinstance(value, (MCPServer, Server)):
        return "server"
    if inspect.isawaitable(value):
        return "awaitable"
    return "function" if callable(value) else "object"


def _short_type(value: Any) -> str:
    name = type(value).__name__
    return name if _NAME.fullmatch(name) else "object"


# --- the grader's side -----------------------------------------------------------------------------------


class _Remote(_Proxy):
    """Something of the learner's: its class is named after the kernel's type, its repr is the kernel's."""

    shown = ""

    def __repr__(self) -> str:
        return self.shown


class RemoteFunction(_Remote):
    """The learner's function (or any callable) in the kernel: calling it calls it there."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._endpoint.request("call", id=self._id, args=self._endpoint.encode(list(args), True),
                                      kwargs=self._endpoint.encode(dict(kwargs), True))

    def apply(self, course_function: Any) -> Any:
        """`course_function(this function)` computed in the kernel (a course function of module level, such as
        `cost.portable_source`): its result as data."""
        path = f"{course_function.__module__}:{course_function.__qualname__}"
        return self._endpoint.request("apply", id=self._id, path=path)

    def describe(self) -> dict:
        """Its name, docstring and signature, as data the kernel reported."""
        found = self._endpoint.request("describe", id=self._id)
        return found if isinstance(found, dict) else {}


class RemoteAwaitable(_Remote):
    """What calling the learner's `async def` returned: awaiting it runs it to the end in the kernel."""

    def __await__(self):
        return self._result().__await__()

    async def _result(self) -> Any:
        import anyio

        return await anyio.to_thread.run_sync(lambda: self._endpoint.request("await", id=self._id))


class RemoteServer(_Remote):
    """The learner's MCP server in the kernel, reached over a real MCP transport (`wire.connect` takes it)."""

    @asynccontextmanager
    async def mcp_transport(self):
        """A fresh connection to the server: the kernel dials the grader's socket and serves on it."""
        import anyio

        from course_lib import wire

        bridge: GraderBridge = self._endpoint  # type: ignore[assignment]
        connection = await anyio.to_thread.run_sync(bridge.open_session, self._id)
        stream = await _stream_of(connection)
        async with wire.line_streams(stream, MAX_RESULT, on_broken=bridge.taint, meter=bridge.metered) as streams:
            yield streams


class RemoteObject(_Remote):
    """Anything else of the learner's: it can be passed back, never looked into (but see `_Reached`)."""


class LentMapping:
    """A dict of the checker's lent to the learner's function by reference (`checks.core.lent`): the dict stays
    here, and the kernel reads and writes it through these methods (`_CourseMapping` there is a dict whose own
    items mirror it, for readers such as `json.dumps`, refreshed from here at every read), so the checker sees what the function did to the very object it was given, and nothing that ran in the
    kernel can say otherwise. A dict inside it is lent the same way; any other value crosses as data."""

    def __init__(self, data: dict):
        self._data = data
        self._inner: dict[int, LentMapping] = {}

    def item(self, key: Any) -> Any:
        value = self._data[key]
        if not isinstance(value, dict):
            return value
        lent = self._inner.get(id(value))
        if lent is None or lent._data is not value:  # one lent object per inner dict
            lent = self._inner[id(value)] = LentMapping(value)
        return lent

    def set_item(self, key: Any, value: Any) -> None:
        self._data[key] = value

    def del_item(self, key: Any) -> None:
        del self._data[key]

    def keys(self) -> list:
        return list(self._data)

    def fresh(self) -> LentMapping:
        """Itself, sent again: its reference carries what it holds now (`GraderBridge.encode`)."""
        return self

    def pairs(self) -> list:
        return [(key, self.item(key)) for key in list(self._data)]


class _Reached:
    """A kernel object given to a forwarded course function (`orders.customer_order`'s store), as that function
    reads it: each public attribute is asked of the kernel, where a method stays (a `RemoteFunction`: calling it runs
    it there, and what it returns or raises comes back as any learner call's does). Only a forwarded call sees one, so
    no check reads a learner's object this way."""

    def __init__(self, remote: RemoteObject):
        object.__setattr__(self, "_remote", remote)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        remote = self._remote
        return remote._endpoint.request("getattr", id=remote._id, name=name)


_REMOTE_KINDS = {"function": RemoteFunction, "awaitable": RemoteAwaitable, "server": RemoteServer,
                 "object": RemoteObject}
_remote_classes: dict[tuple[type, str], type] = {}


def _remote_class(base: type, type_name: str) -> type:
    """A subclass of `base` named `type_name`, so `type(x).__name__` reads as it would in process."""
    if (base, type_name) not in _remote_classes:
        _remote_classes[base, type_name] = type(type_name, (base,), {"__module__": "learner"})
    return _remote_classes[base, type_name]


def _method_of(target: Any, name: str) -> bool:
    """Whether `name` is a method its class defines (plain, static or class method), not a value it holds."""
    import types

    for cls in type(target).__mro__:
        if name in vars(cls):
            return isinstance(vars(cls)[name], (types.FunctionType, staticmethod, classmethod))
    return False


class GraderBridge(_Endpoint):
    """The grader's side: it lends the checker's objects to the kernel and reaches the learner's answer.

    It listens on `grader.sock` in `run_dir`; the kernel's agent connects with `token`, then each MCP session
    with the learner's server is a connection the kernel opens on request with a one-time token.
    """

    side = "grader"

    def __init__(self, run_dir: Path, tcp: bool | None = None):
        super().__init__(None, workers=64)
        self.run_dir = Path(run_dir)
        self.token = secrets.token_hex(16)
        self.broken: str | None = None
        self.too_large: str | None = None  # why this check's answer was refused for its size
        self._read_bytes = self._read_values = 0  # what the grader read from the kernel since the check began
        self._forwarded: Counter = Counter()  # "module.name" of a FORWARDED function -> calls the kernel made
        self._checks: Counter = Counter()  # those the checks caused (a checker calling the learner's code)
        self._at_check: Counter = Counter()  # the counts when the running check began
        self.before_check: dict[str, list[Earlier]] = {}  # the forwarded calls made before the running check
        self._earlier: dict[str, list[Earlier]] = {}  # every forwarded call made outside a check, so far
        self._checking = False
        self._earlier_bytes = 0
        self._loans_from = 0  # the first number lent in the running check: its loans end with it (red team 10, F1)
        self._generation = 0  # bumped whenever loans end (`_next_loans`)
        self.servers: list[RemoteServer] = []  # the learner's servers that crossed, in order
        self.ran: list[str] = []  # the code the grader sent the kernel to run, in order (`core.learner_source`)
        self.kernel_host = socket.gethostname()  # the kernel's machine name, as the grader started it
        self._sessions: dict[str, Future] = {}
        self._agent: Future = Future()
        self._opened = 0
        self._greeting = threading.BoundedSemaphore(32)
        self._loop = _Loop()
        self._forwarding = threading.BoundedSemaphore(FORWARDED_AT_ONCE)
        self.on_overrun = lambda reason: None  # the runner stops the kernel (`FORWARD_SECONDS`)
        if TCP if tcp is None else tcp:
            self._listener = socket.create_server(("127.0.0.1", 0))
            self.address: Address = self._listener.getsockname()[:2]
        else:
            self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.address = str(self.run_dir / "grader.sock")
            self._listener.bind(self.address)
            os.chmod(self.address, 0o777)  # the kernel runs as a user of its own
        self._listener.listen(64)
        threading.Thread(target=self._accept, name="course-grader-accept", daemon=True).start()

    def agent_code(self) -> str:
        """The code that starts the agent in the kernel (run before the notebook's first cell)."""
        return ("from course_lib.workbook import boundary as _course_boundary\n"
                f"_course_boundary.forward_course_functions(_course_boundary.start_agent({self.address!r}, "
                f"{self.token!r}, get_ipython().user_ns))\n"
                "del _course_boundary")

    def wait_for_agent(self, timeout: float) -> None:
        """Wait until the agent has connected; `BridgeClosed` if it did not in time."""
        try:
            connection = self._agent.result(timeout)
        except Exception:
            raise BridgeClosed("the kernel's agent did not connect") from None
        self._lines = _Lines(connection)
        self.start()

    def end_check(self) -> None:
        """A check ended (the runner calls this): the forwarded calls made while it ran were the checker's doing
        (it called the learner's code with inputs of its own), not the cells'.

        The rule, and why it is sound: a forwarded function runs only in the grader, so every call of it is seen
        here, whenever it is made, with its arguments. A check's watch (`checks.core.watched`) counts the calls made
        while it runs, and of the calls made before it (`before_check`: by a cell, or while an earlier exercise's
        check ran) those its `earlier` rule says could be the answer kept for later: a call whose arguments are
        what the check asks about (a result fetched in a cell and kept, red team 6's 112 forecasts for 1.3), never
        a try-out or comparison cell's call on other arguments (red team rtgrade9 L2, L3: "found it called" about
        an answer that never did).

        Every object the grader lent during the check is taken back: a store, a definition, a server or a
        callback the checker passed the learner's code reaches nothing once its check is over, so no later check
        can be answered with an earlier check's objects (red team 10's F1: 5.3 decided by 5.2's store)."""
        with self._lock:  # one section: no loan can land between the loans' end and the next first number
            self._checks += self._forwarded - self._at_check
            self._checking = False
            self._next_loans()

    def begin_check(self) -> None:
        """A check begins: what the kernel sends from now on counts against its limits (`MAX_CHECK_BYTES`), and
        the forwarded calls made so far are kept in `before_check` (see `end_check`)."""
        with self._lock:
            self._next_loans()  # nothing lent since the last check ended outlives it either
            self._read_bytes = self._read_values = 0
            self.too_large = self.broken = None
            self.before_check = {name: list(calls) for name, calls in self._earlier.items()
                                 if name not in CALLED_ON_ITS_OWN}
            self._at_check = Counter(self._forwarded)
            self._checking = True

    def _next_loans(self) -> None:
        """End every loan of the check (or of the cells) that is over, and start the next one's: what is lent from
        now on is ended by the next `begin_check`/`end_check`; a request that began before now lends nothing
        (`_may_lend`). Call with the lock held (red team 11, F3: a loan that landed between two sections outlived
        every later check)."""
        self._end_loans(self._loans_from)
        self._loans_from = next(self._count)
        self._generation += 1

    def _may_lend(self) -> None:
        """A request of the kernel's that began under a check (or between checks) that has since ended lends
        nothing: what it would lend would outlive the loans it belongs to."""
        began = _request_generation.get()
        if began is not None and began[0] is self and began[1] != self._generation:
            raise BoundaryError("a request that began under a check that has ended: it is answered with nothing "
                                "(keep nothing a check passes your code for later)")

    def _keep_earlier(self, name: str, values: list) -> None:
        """Keep a forwarded call's arguments (`_plain`) for later checks' rules (`Earlier`), within `EARLIER_BYTES`
        (call with the lock held)."""
        earlier = self._earlier.setdefault(name, [])
        size = len(json.dumps(values, default=repr))
        if self._earlier_bytes + size <= EARLIER_BYTES:
            self._earlier_bytes += size
            earlier.append(Earlier(values, self._checking))
        elif not self._checking:  # unread: every rule counts it
            if earlier and earlier[-1].values is None:
                earlier[-1] = Earlier(None, False, earlier[-1].times + 1)
            else:
                earlier.append(Earlier(None, False))

    def metered(self, line: bytes | None) -> str | None:
        """For an MCP connection with the kernel (`wire.line_streams`): why `line` is refused, or None."""
        if line is None:
            return self._metered(MAX_RESULT + 1, 0)
        return self._metered(len(line), _values(line))

    def _metered(self, size: int, values: int) -> str | None:
        """Count a message read from the kernel against this check's limits; once one is passed, every later
        message of the check is refused too (the reason, "answer too large: ..." for one message, "too much sent: ..."
        for all of them together, is in `too_large`)."""
        with self._lock:
            self._read_bytes += size
            self._read_values += values
            if self.too_large is None:
                if size > MAX_RESULT:
                    reason = f"one result was over {MAX_RESULT >> 20} MB"
                elif values > MAX_RESULT_VALUES:
                    reason = (f"one result held about {values:,} values (lists, dicts and their items), over "
                              f"{MAX_RESULT_VALUES:,}")
                elif self._read_bytes > MAX_CHECK_BYTES:
                    reason = (f"too much sent: what your kernel sent the grader during this check (results and "
                              f"every other message) came to over {MAX_CHECK_BYTES >> 20} MB")
                elif self._read_values > MAX_CHECK_VALUES:
                    reason = (f"too much sent: what your kernel sent the grader during this check (results and "
                              f"every other message) held over {MAX_CHECK_VALUES:,} values (lists, dicts and their "
                              "items)")
                else:
                    return None
                self.too_large = f"{'' if reason.startswith('too much') else 'answer too large: '}{reason}, " \
                                 "the grader's limit"
            return self.too_large

    def taint(self, reason: str) -> None:
        """Remember that an MCP connection to the learner's server broke (what no in-process server can do)."""
        if self.broken is None:
            self.broken = reason

    def close(self, reason: str) -> None:
        super().close(reason)
        try:
            self._listener.close()
        except OSError:
            pass
        for future in list(self._sessions.values()):
            if not future.done():
                future.set_exception(BridgeClosed(reason))
        self._loop.stop()

    # connections from the kernel

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self._listener.accept()
            except OSError:
                return
            self._opened += 1
            if self._opened > MAX_CONNECTIONS:
                connection.close()
                self.taint(f"the kernel opened more than {MAX_CONNECTIONS:,} connections")
                self._listener.close()
                return
            if not self._greeting.acquire(blocking=False):  # a flood of half-open connections
                connection.close()
                continue
            threading.Thread(target=self._greet, args=(connection,), daemon=True).start()

    def _greet(self, connection: socket.socket) -> None:
        """Read a new connection's first line (at most 4 kB, within HELLO_SECONDS) and hand the connection on."""
        try:
            connection.settimeout(HELLO_SECONDS)
            data = bytearray()
            while len(data) < 4096 and not data.endswith(b"\n"):
                byte = connection.recv(1)  # one byte at a time: what follows the line belongs to the session
                if not byte:
                    break
                data += byte
            hello = json.loads(data) if data.endswith(b"\n") else None
            connection.settimeout(None)
        except (OSError, ValueError):
            hello = None
        finally:
            self._greeting.release()
        if not isinstance(hello, dict):
            connection.close()
        elif hello.get("agent") == self.token and not self._agent.done():
            self._agent.set_result(connection)
        elif isinstance(hello.get("session"), str) and hello["session"] in self._sessions:
            future = self._sessions.pop(hello["session"])
            if not future.done():
                future.set_result(connection)
        elif isinstance(hello.get("serve"), int) and hello.get("token") == self.token:
            self._serve_course_server(hello["serve"], connection)
        else:
            connection.close()

    def open_session(self, number: int) -> socket.socket:
        """A connected socket on which the kernel serves the learner's server `number` (blocking)."""
        token = secrets.token_hex(16)
        future: Future = Future()
        self._sessions[token] = future
        try:
            self.request("dial", id=number, token=token)
            return future.result(HELLO_SECONDS * 3)
        except TimeoutError:
            raise BridgeClosed("the kernel did not open the MCP connection it was asked for") from None
        finally:
            self._sessions.pop(token, None)

    def _serve_course_server(self, number: int, connection: socket.socket) -> None:
        """Serve a server the checker lent the kernel (a lesson server) on the kernel's connection."""
        try:
            server = self._own(number)
            if _kind(server) != "server":
                raise BoundaryError("not a server")
        except BoundaryError:
            connection.close()
            return
        self._start_serving(server, connection)

    def _start_serving(self, server: Any, connection: socket.socket) -> None:
        from course_lib import wire

        async def serve() -> None:
            _caused.set(self)  # what the server runs is this kernel's doing (`caused_by`)
            stream = await _stream_of(connection)
            async with wire.line_streams(stream, MAX_RESULT, meter=self.metered) as (read, write):
                await wire.serve_streams(server, read, write)

        self._loop.start(serve)

    # what the kernel may ask: only calls and attributes of what the checker lent it

    def _answer(self, message: dict, size: int = 0) -> None:
        """Answer one request of the kernel's, counted in `leftovers` while it runs, as caused by this bridge's
        kernel (`caused_by`)."""
        global _serving
        if message.get("op") == "course" and size > FORWARD_BYTES:
            message = {"call": message["call"], "op": "refused", "reason": (
                f"a call of a course function with {size:,} bytes of arguments: the grader runs it for at most "
                f"{FORWARD_BYTES >> 10} kB")}
        with _serving_lock:
            _serving += 1
        token = _caused.set(self)
        began = _request_generation.set((self, self._generation))
        try:
            super()._answer(message, size)
        finally:
            _request_generation.reset(began)
            _caused.reset(token)
            with _serving_lock:
                _serving -= 1

    def _forward(self, path: Any, args: list, kwargs: dict) -> Any:
        """Run a forwarded course function for the kernel: one call at a time (`FORWARDED_AT_ONCE`), each for at
        most `FORWARD_SECONDS` (past it the kernel is stopped, and the call, which no thread can stop, left to
        discard with its worker)."""
        function = _forwarded(path)
        args = [_Reached(arg) if isinstance(arg, RemoteObject) else arg for arg in args]
        kwargs = {key: _Reached(arg) if isinstance(arg, RemoteObject) else arg for key, arg in kwargs.items()}
        with self._forwarding:
            if self.closed:
                raise BridgeClosed(self.closed)
            module_name, _, name = path.partition(":")
            name = f"{module_name.rsplit('.', 1)[-1]}.{name}"
            kept = _plain([*args, *kwargs.values()])
            with self._lock:
                self._forwarded[name] += 1
                self._keep_earlier(name, kept)
            timer = threading.Timer(FORWARD_SECONDS, self._overran, args=(name,))
            timer.daemon = True
            timer.start()
            try:
                return self.encode(function(*args, **kwargs), by_reference=False)
            finally:
                timer.cancel()

    def _overran(self, name: str) -> None:
        reason = f"a call of {name} it asked the grader for ran longer than {FORWARD_SECONDS:g} s"
        self.on_overrun(reason)
        self.close(reason)

    def handle(self, op: str, message: dict) -> Any:
        if op == "course":  # a forwarded course function, run (and counted by a check's watch) here
            args, kwargs = self._args(message)
            return self._forward(message.get("path"), args, kwargs)
        target = self._own(message.get("id"))
        if op == "call":
            if not callable(target):
                raise PermissionError("that object cannot be called")
            args, kwargs = self._args(message)
            found = target(*args, **kwargs)
            return self.encode(found, by_reference=isinstance(found, LentMapping))
        if op == "getattr":
            name = message.get("name")
            if not isinstance(name, str) or not _NAME.fullmatch(name) or name.startswith("_"):
                raise AttributeError(f"{name!r} is not a public attribute")
            value = getattr(target, name)
            if _method_of(target, name):
                return self._reference(value)
            return self.encode(value, by_reference=False)
        raise PermissionError(f"the kernel may not ask for {op!r}")

    def encode(self, value: Any, by_reference: bool, depth: int = 0) -> Any:
        """As `_Codec.encode`; a lent mapping's reference also carries its items (inner dicts lent the same way),
        so the kernel's copy is a dict that holds them (red team 9, L1: `isinstance(definition, dict)`,
        `json.dumps(definition)` and `definition.copy()` failed on a mapping that was not one)."""
        if not (by_reference and isinstance(value, LentMapping)):
            return super().encode(value, by_reference, depth)
        if depth > MAX_DEPTH:
            raise BoundaryError(f"a value nested more than {MAX_DEPTH} levels deep")
        found = self._reference(value)
        found["items"] = [[self.encode(key, False, depth + 1), self.encode(item, True, depth + 1)]
                          for key, item in value.pairs()]
        return found

    def _reference(self, value: Any) -> dict:
        kind = _kind(value)
        if kind == "awaitable":
            raise PermissionError("an awaitable cannot cross to the kernel")
        return {"$": "ref", "id": self._lend(value), "kind": kind, "type": _short_type(value)}

    def _proxy(self, data: dict) -> Any:
        number, base = data.get("id"), _REMOTE_KINDS.get(data.get("kind"))
        if not isinstance(number, int) or base is None:
            raise BoundaryError("a reference without its number or of an unknown kind")
        type_name = data["type"] if isinstance(data.get("type"), str) and _NAME.fullmatch(data["type"]) else "object"
        made = _remote_class(base, type_name)(self, number, type_name)
        made.shown = data["repr"][:200] if isinstance(data.get("repr"), str) else f"<{type_name}>"
        if base is RemoteServer and len(self.servers) < 1000:
            self.servers.append(made)
        if base is RemoteFunction:
            name = data.get("name")
            made.__name__ = made.__qualname__ = name if isinstance(name, str) and _NAME.fullmatch(name) else "function"
            course = data.get("course")  # the kernel's word that it is one of course_lib's own functions
            made.course = course[:100] if isinstance(course, str) and _DOTTED.fullmatch(course[:100]) else ""
        return made

    def _exception(self, data: Any) -> BaseException:
        data = data if isinstance(data, dict) else {}
        return learner_exception(data.get("type"), data.get("message"))

    # what the runner asks

    def lookup(self, name: str) -> Any:
        """The value of a name in the kernel's namespace (a proxy unless it is data); NameError if undefined."""
        return self.request("lookup", name=name)


# --- the kernel's side ---------------------------------------------------------------------------------


class _CourseFunction(_Proxy):
    """In the kernel: a function of the checker's (a scripted person, a store's method)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._endpoint.request("call", id=self._id, args=self._endpoint.encode(list(args), True),
                                      kwargs=self._endpoint.encode(dict(kwargs), True))


class _CourseObject(_Proxy):
    """In the kernel: an object of the checker's (an incident store, `Releases`): its public methods and data."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return self._endpoint.request("getattr", id=self._id, name=name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in ("_endpoint", "_id", "type_name"):
            object.__setattr__(self, name, value)
            return
        raise AttributeError(f"the course's {self.type_name} cannot be changed from here; use its methods")


class _CourseMapping(_Proxy, dict):
    """In the kernel: a dict of the checker's, lent by reference (`LentMapping`): every read asks the grader for it
    again and every write is done there; its own items mirror the grader's (what a reader that looks only at a
    dict's storage, such as `json.dumps`, sees). A copy of it is a plain dict, and so is what its type makes when
    called as a dict's would be (`type(d)(pairs)`, red team 10, L1'). Its type's name, which a learner's message
    may show, is `LENT_DICT`."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        if args and isinstance(args[0], _Endpoint):
            return super().__new__(cls)
        return dict(*args, **kwargs)  # `type(definition)(...)` in a learner's code: a plain dict, as in Jupyter

    def __init__(self, endpoint: _Endpoint, number: int, type_name: str, items: Any = ()):
        _Proxy.__init__(self, endpoint, number, type_name)
        dict.__init__(self, items)

    def _ask(self, method: str, *args: Any) -> Any:
        return self._endpoint.request("getattr", id=self._id, name=method)(*args)

    def _fresh(self) -> _CourseMapping:
        now = self._ask("fresh")
        dict.clear(self)
        dict.update(self, dict.items(now))
        return self

    def __setitem__(self, key: Any, value: Any) -> None:
        self._ask("set_item", key, value)
        self._fresh()

    def __delitem__(self, key: Any) -> None:
        self._ask("del_item", key)
        self._fresh()

    def __getitem__(self, key: Any) -> Any:
        return dict.__getitem__(self._fresh(), key)

    def __iter__(self) -> Iterator:
        return iter(list(dict.keys(self._fresh())))

    def __len__(self) -> int:
        return dict.__len__(self._fresh())

    def __contains__(self, key: Any) -> bool:
        return dict.__contains__(self._fresh(), key)

    def __eq__(self, other: Any) -> bool:
        return dict.__eq__(self._fresh(), other)

    def __ne__(self, other: Any) -> bool:
        return dict.__ne__(self._fresh(), other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return dict.__repr__(self._fresh())

    def __or__(self, other: Any) -> Any:
        return dict.__or__(self.copy(), other)

    def __ror__(self, other: Any) -> Any:
        return dict.__or__(dict(other), self.copy()) if isinstance(other, dict) else NotImplemented

    def __ior__(self, other: Any) -> _CourseMapping:
        self.update(other)
        return self

    def keys(self) -> Any:
        return dict.keys(self._fresh())

    def values(self) -> Any:
        return dict.values(self._fresh())

    def items(self) -> Any:
        return dict.items(self._fresh())

    get = MutableMapping.get
    popitem = MutableMapping.popitem
    setdefault = MutableMapping.setdefault
    update = MutableMapping.update
    clear = MutableMapping.clear

    def pop(self, key: Any, *default: Any) -> Any:
        try:
            value = self[key]
        except KeyError:
            if default:
                return default[0]
            raise
        del self[key]
        return value

    def copy(self) -> dict:
        return dict(dict.items(self._fresh()))

    def __copy__(self) -> dict:
        return self.copy()

    def __deepcopy__(self, memo: dict) -> dict:
        import copy

        return {key: copy.deepcopy(value, memo) for key, value in self.items()}

    def __reduce__(self) -> Any:
        return dict, (self.copy(),)


LENT_DICT = "LentDict"
"""The name a learner's code sees as the type of a dict the checker lent it (`type(definition).__name__`)."""
_CourseMapping.__name__ = _CourseMapping.__qualname__ = LENT_DICT


class _CourseServer(_Proxy):
    """In the kernel: a lesson server the checker lent, reached over MCP on the grader's socket."""

    @asynccontextmanager
    async def mcp_transport(self):
        from course_lib import wire

        agent: KernelAgent = self._endpoint  # type: ignore[assignment]
        stream = await _open_stream(agent.grader_address)
        hello = json.dumps({"serve": self._id, "token": agent.token}) + "\n"
        await stream.send(hello.encode())
        async with wire.line_streams(stream, MAX_LINE) as streams:
            yield streams


class KernelAgent(_Endpoint):
    """The kernel's side: it lends the learner's objects and serves the learner's servers when asked."""

    side = "kernel"
    trusted_peer = True

    def __init__(self, lines: _Lines, grader_address: Address, token: str, namespace: dict):
        super().__init__(lines, workers=16)
        self.grader_address, self.token, self.namespace = grader_address, token, namespace
        self._loop = _Loop()
        from course_lib.checks import core  # taken now, before any learner code runs: a later replacement of
        self._pinned = {"course_lib.checks.core:watched_here": core.watched_here}  # the module attribute is not used

    def handle(self, op: str, message: dict) -> Any:
        if op == "lookup":
            name = message.get("name")
            if not isinstance(name, str) or name not in self.namespace:
                raise NameError(f"name {name!r} is not defined")
            return self.encode(self.namespace[name], by_reference=True)
        if op == "enter":
            path = message.get("path")
            manager = (self._pinned.get(path) or _course_callable(path))(*self._args(message)[0])
            return self._lend((manager, manager.__enter__()))
        target = self._own(message.get("id"))
        if op == "call":
            args, kwargs = self._args(message)
            return self.encode(target(*args, **kwargs), by_reference=True)
        if op == "await":
            async def finish() -> Any:
                return await target

            return self.encode(asyncio.run(finish()), by_reference=True)
        if op == "describe":
            return self.encode(describe(target), by_reference=False)
        if op == "getattr":  # of an object the kernel lent, for a forwarded call's course function (`_Reached`)
            name = message.get("name")
            if not isinstance(name, str) or not _NAME.fullmatch(name) or name.startswith("_"):
                raise AttributeError(f"{name!r} is not a public attribute")
            return self.encode(getattr(target, name), by_reference=True)
        if op == "dial":
            self._dial(target, str(message.get("token", "")))
            return None
        if op == "exit":
            manager, value = target
            manager.__exit__(None, None, None)
            return self.encode(value, by_reference=False)
        if op == "apply":
            return self.encode(_course_callable(message.get("path"))(target), by_reference=False)
        raise PermissionError(f"unknown request {op!r}")

    def forward(self, path: str, args: tuple, kwargs: dict) -> Any:
        """A call of the forwarded course function `path`, run by the grader (see `FORWARDED`)."""
        return self.request("course", path=path, args=self.encode(list(args), True),
                            kwargs=self.encode(dict(kwargs), True))

    def _dial(self, server: Any, token: str) -> None:
        """Connect to the grader and serve `server` on that connection (in the agent's serving loop)."""
        from course_lib import wire

        if _kind(server) != "server":
            raise TypeError(f"{type(server).__name__} is not an MCP server")

        async def serve() -> None:
            stream = await _open_stream(self.grader_address)
            await stream.send((json.dumps({"session": token}) + "\n").encode())
            async with wire.line_streams(stream, MAX_LINE) as (read, write):
                await wire.serve_streams(server, read, write)

        self._loop.start(serve)

    def _reference(self, value: Any) -> dict:
        kind = _kind(value)
        found = {"$": "ref", "id": self._lend(value), "kind": kind, "type": _short_type(value)}
        if kind == "function":
            found["name"] = getattr(value, "__name__", None) or _short_type(value)
            found["course"] = _of_the_course(value)
        elif kind == "server":  # a server's name is part of what it is, as `server.name` in process
            found["name"] = str(getattr(value, "name", "") or "")[:200]
        try:
            found["repr"] = repr(value)[:200]
        except Exception:  # a learner's __repr__ that fails: the type name is enough
            pass
        return found

    def _proxy(self, data: dict) -> Any:
        kind = data.get("kind")
        cls = {"function": _CourseFunction, "object": _CourseObject, "server": _CourseServer,
               "mapping": _CourseMapping}.get(kind)
        if cls is None:
            raise BoundaryError("a reference of an unknown kind")
        made = cls(self, data["id"], str(data.get("type", "object")))
        if kind == "mapping":
            dict.update(made, self._items(data, 0))
        if kind == "server":
            object.__setattr__(made, "name", str(data.get("name") or "")[:200])
        return made

    def _exception(self, data: Any) -> BaseException:
        return _trusted_exception(data)


def _of_the_course(function: Any) -> str:
    """In the kernel: "module.name" when `function` is one of course_lib's own (by its module or its code's file;
    a bound method by its function's), else ""."""
    import types

    inner = getattr(function, "__func__", function)
    module = getattr(inner, "__module__", None)
    code = inner.__code__ if isinstance(inner, types.FunctionType) else None
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ours = (isinstance(module, str) and (module == "course_lib" or module.startswith("course_lib."))) or (
        code is not None and os.path.abspath(code.co_filename).startswith(package + os.sep))
    if not ours:
        return ""
    return f"{module if isinstance(module, str) else 'course_lib'}.{getattr(inner, '__qualname__', 'function')}"


def _forwarded(path: Any) -> Any:
    """The grader's own course function a forwarded call names ("module:name" of `FORWARDED`)."""
    import importlib

    module_name, _, name = path.partition(":") if isinstance(path, str) else ("", "", "")
    if name not in FORWARDED.get(module_name, ()):
        raise PermissionError(f"{path!r} is not a course function the kernel may ask for")
    return getattr(importlib.import_module(module_name), name)


_STUB = """def _forwarded_stub(*args, **kwargs):
    return {key}({path!r}, args, kwargs)
"""


_agent: KernelAgent | None = None
"""In a graded kernel: the agent that forwarded calls go through (`forward_call`)."""


def forward_call(path: str, args: tuple, kwargs: dict) -> Any:
    """In a graded kernel: a call of the forwarded course function `path` ("module:name"), run by the grader. The
    kernel's copy of course_lib has only stubs that call this (`release.forwarding_stubs`); without the grader's
    agent (a fresh process, or after a reload of this module) the call fails: no body runs in the kernel."""
    if _agent is None:
        raise RuntimeError(f"{path.replace(':', '.')} is the course's own: while a submission is graded it runs "
                           "only in the grader")
    return _agent.forward(path, args, kwargs)


def forward_course_functions(agent: KernelAgent) -> None:
    """In a graded kernel, before the learner's first cell: make each `FORWARDED` function a stub that sends its
    calls to the grader. Its code object is swapped (so a reference taken anywhere, or a function made later from
    its `__code__`, forwards too) and the original code is dropped; its signature stays what it was. (The kernel's
    copy of course_lib holds only such stubs in the modules' files too, `release.forwarding_stubs`, so a reload
    or an exec of the file gets no body back.)"""
    import importlib

    global _agent
    _agent = agent
    for module_name, names in FORWARDED.items():
        module = importlib.import_module(module_name)
        key = "__course_forward__"
        module.__dict__[key] = agent.forward
        for name in names:
            function = getattr(module, name)
            made: dict = {}
            exec(_STUB.format(key=key, path=f"{module_name}:{name}"), module.__dict__, made)
            function.__signature__ = inspect.signature(function)
            original = function.__code__  # its file and first line kept: show.source still shows the real lines
            function.__code__ = made["_forwarded_stub"].__code__.replace(
                co_filename=original.co_filename, co_firstlineno=original.co_firstlineno, co_name=original.co_name)
            function.__defaults__ = function.__kwdefaults__ = None


def _course_callable(path: Any) -> Any:
    """In the kernel: the course function a "module:name" path names (only course_lib's)."""
    import importlib

    if not isinstance(path, str) or not _TYPE_PATH.fullmatch(path) or not path.startswith("course_lib."):
        raise PermissionError(f"{path!r} is not a course function")
    module_name, qualname = path.split(":")
    found: Any = importlib.import_module(module_name)
    for part in qualname.split("."):
        found = getattr(found, part)
    return found


_current: contextvars.ContextVar = contextvars.ContextVar("course_bridge", default=None)


@contextmanager
def checking(bridge: GraderBridge):
    """While a checker runs in this thread: the bridge to its kernel, for `in_kernel`."""
    token = _current.set(bridge)
    try:
        yield bridge
    finally:
        _current.reset(token)


def current() -> GraderBridge | None:
    """The bridge to the kernel of the check running in this thread, or None (a check in process)."""
    return _current.get()


_caused: contextvars.ContextVar = contextvars.ContextVar("course_caused_by", default=None)
_request_generation: contextvars.ContextVar = contextvars.ContextVar("course_request_generation", default=None)


def caused_by() -> GraderBridge | None:
    """The bridge whose kernel caused what this thread runs: the kernel a request or an MCP session came from
    (`GraderBridge._answer`, a lent server served to it), else the check running here (`current`), else None. A
    watch counts no call another kernel caused (`checks.core.watched_here`)."""
    return _caused.get() or _current.get()


@contextmanager
def in_kernel(factory: Any, *args: Any):
    """Enter the course context manager `factory(*args)` in the kernel of the running check too (if any).

    Yields a list that, when the block ends, holds the value the kernel's context yielded (a list such as a
    watch's calls is extended with it): data only. `factory` must be a course_lib function at module level.
    """
    bridge = current()
    kept: list = []
    if bridge is None:
        yield kept
        return
    path = f"{factory.__module__}:{factory.__qualname__}"
    number = bridge.request("enter", path=path, args=bridge.encode(list(args), False), kwargs={})
    try:
        yield kept
    finally:
        found = bridge.request("exit", id=number)
        if isinstance(found, list):
            kept.extend(found)
        elif found is not None:
            kept.append(found)


def start_agent(grader_address: Address, token: str, namespace: dict) -> KernelAgent:
    """In the kernel: connect to the grader and answer its requests from now on (in background threads)."""
    connection = _connect(grader_address)
    connection.sendall((json.dumps({"agent": token}) + "\n").encode())
    agent = KernelAgent(_Lines(connection), grader_address, token, namespace)
    agent.start()
    return agent


def describe(fn: Any) -> dict:
    """A function's name, docstring and signature as data (what a checker may read of it)."""
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        signature = None

    def text(annotation: Any) -> str | None:
        if annotation is inspect.Parameter.empty:
            return None
        return annotation if isinstance(annotation, str) else inspect.formatannotation(annotation)

    parameters = [] if signature is None else [
        {"name": p.name, "kind": p.kind.name, "annotation": text(p.annotation),
         "default": None if p.default is inspect.Parameter.empty else repr(p.default)}
        for p in signature.parameters.values()]
    return {"name": getattr(fn, "__name__", type(fn).__name__), "doc": inspect.getdoc(fn),
            "signature": None if signature is None else str(signature), "parameters": parameters,
            "returns": None if signature is None else text(signature.return_annotation),
            "is_async": inspect.iscoroutinefunction(fn)}
