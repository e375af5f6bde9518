"""The grading boundary on its own: what crosses and how, what the kernel may use, and hostile data refused.

The kernel's side here is the real agent (`boundary.start_agent`) in this process, connected over the
real Unix socket; a fake kernel (raw lines on that socket) sends what a hostile one could.
"""

from __future__ import annotations

import json
import math
import socket
import time

import pytest

from course_lib import wire
from course_lib.host import Decision, Origin
from course_lib.servers import deploy, incidents, weather
from course_lib.workbook import boundary


@pytest.fixture
def pair(tmp_path):
    """The grader's bridge and a kernel agent answering from `namespace` (a dict the test fills)."""
    bridge = boundary.GraderBridge(tmp_path)
    namespace: dict = {}
    agent = boundary.start_agent(bridge.address, bridge.token, namespace)
    bridge.wait_for_agent(10)
    yield bridge, namespace, agent
    bridge.close("the test is over")
    agent.close("the test is over")


VALUES = [None, True, 3, -2.5, "text", [1, [2, [3]]], {"a": {"b": [1, 2]}}, (1, "two", (3,)), {1, 2, 3},
          frozenset({"x"}), b"\x00\xffbytes", {1: "int key", (2, 3): "tuple key"}, {"$": "a dollar key"},
          math.inf, -math.inf, incidents.Note(noteId="N1", author="ana", text="Rolled back."),
          Decision(True, "asks", retry=True), Origin("documents", "read_document", "DOC-1"),
          deploy.Deployment(service="checkout", environment="staging", version="2.8.1", previousVersion="2.8.0")]


@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
def test_data_and_course_data_types_cross_as_what_they_were(pair, value):
    bridge, namespace, _ = pair
    namespace["value"] = value
    namespace["echo"] = lambda given: given
    assert bridge.lookup("value") == value and type(bridge.lookup("value")) is type(value)
    assert bridge.lookup("echo")(value) == value  # there and back again


def test_a_nan_crosses_as_a_nan(pair):
    bridge, namespace, _ = pair
    namespace["value"] = math.nan
    assert math.isnan(bridge.lookup("value"))


def test_the_learners_functions_servers_and_objects_stay_in_the_kernel(pair):
    bridge, namespace, _ = pair

    class Notebookish:
        pass

    async def later(x):
        return x * 2

    namespace.update(add=lambda a, b: a + b, server=weather.build_server(), thing=Notebookish(), later=later)
    add, server, thing = bridge.lookup("add"), bridge.lookup("server"), bridge.lookup("thing")
    assert isinstance(add, boundary.RemoteFunction) and add(2, 3) == 5 and add.__name__ == "<lambda>" or \
        add.__name__ == "function"
    assert isinstance(server, boundary.RemoteServer) and type(server).__name__ == "MCPServer"
    assert isinstance(thing, boundary.RemoteObject) and type(thing).__name__ == "Notebookish"
    assert bridge.lookup("echo") if "echo" in namespace else True
    namespace["same"] = lambda given: given is namespace["thing"]
    assert bridge.lookup("same")(thing) is True  # a reference comes back as the very object
    pending = bridge.lookup("later")(21)
    assert isinstance(pending, boundary.RemoteAwaitable)

    async def wait():
        return await pending

    assert wire.run_sync(wait) == 42


def test_a_learner_server_is_reached_over_a_real_mcp_transport_in_both_eras(pair):
    bridge, namespace, _ = pair
    namespace["server"] = weather.build_server()
    server = bridge.lookup("server")
    for era in wire.ERAS:
        tools = wire.run_sync(wire.list_tools, server, era)
        assert "get_daily_forecast" in [tool.name for tool in tools]
        result = wire.run_sync(wire.call_tool, server, "get_daily_forecast", {"city": "Oslo", "days": 1}, era)
        assert result.structured_content["city"] == "Oslo"
    tap = wire.Tap(server)

    async def listed():
        async with wire.connect(tap) as client:
            await client.list_tools()

    wire.run_sync(listed)
    assert wire.requests_sent(tap.frames, "tools/list") == 1  # the JSON-RPC frames are real and recorded


def test_the_kernel_uses_the_checkers_objects_only_through_their_public_methods_and_data(pair):
    bridge, namespace, _ = pair
    store = incidents.Store()

    def use(store):
        found = {"notes": [note.text for note in store.notes("INC-101")],
                 "added": store.append_note("ana", "INC-103", "Cache flushed.").noteId,
                 "delay": store.write_delay}
        for attempt, action in (("private", lambda: store._records), ("write", lambda: setattr(store, "x", 1)),
                                ("object", lambda: store.user("ana"))):
            try:
                action()
                found[attempt] = "allowed"
            except (AttributeError, PermissionError) as error:
                found[attempt] = type(error).__name__
        try:
            store.get("gil", "INC-101")
        except Exception as error:  # the course's ToolError, rebuilt as one in the kernel
            found["refusal"] = f"{type(error).__module__}.{type(error).__name__}"
        return found

    namespace["use"] = use
    found = bridge.lookup("use")(store)
    assert found == {"notes": ["Latency rose after the 14:05 deploy of checkout 2.8.0."], "added": "N1",
                     "delay": 0.0, "private": "AttributeError", "write": "AttributeError", "object": "allowed",
                     "refusal": "mcp.server.mcpserver.exceptions.ToolError"}
    assert [note.text for note in store.notes("INC-103")] == ["Cache flushed."]  # written in the grader's store


def test_what_the_learners_code_raises_comes_back_by_type_name_and_message(pair):
    bridge, namespace, _ = pair

    def stub():
        raise NotImplementedError("Exercise 1.4: return True only for valid names")

    def broken():
        raise ValueError("no such city")

    class Private(Exception):
        pass

    def odd():
        raise Private("mine")

    namespace.update(stub=stub, broken=broken, odd=odd)
    with pytest.raises(NotImplementedError, match="^Exercise 1.4: return True only for valid names$"):
        bridge.lookup("stub")()
    with pytest.raises(ValueError, match="^no such city$") as raised:
        bridge.lookup("broken")()
    assert isinstance(raised.value, boundary.LearnerRaised)
    with pytest.raises(boundary.LearnerRaised) as raised:
        bridge.lookup("odd")()
    assert type(raised.value).__name__ == "Private" and str(raised.value) == "mine"
    with pytest.raises(NameError, match="'missing' is not defined"):
        bridge.lookup("missing")


def test_describe_gives_name_docstring_and_signature_as_data(pair):
    from course_lib.checks import core

    bridge, namespace, _ = pair

    def bounds(definition: dict, parameter: str = "days") -> tuple:
        """Minimum and maximum of a parameter.

        None where missing."""

    namespace["bounds"] = bounds
    remote = bridge.lookup("bounds")
    assert core.docstring(remote) == core.docstring(bounds) == "Minimum and maximum of a parameter.\n\nNone where missing."
    assert core.signature(remote) == core.signature(bounds) == {
        "text": "(definition: 'dict', parameter: 'str' = 'days') -> 'tuple'", "returns": "tuple",  # postponed
        "parameters": [{"name": "definition", "kind": "POSITIONAL_OR_KEYWORD", "annotation": "dict", "default": None},
                       {"name": "parameter", "kind": "POSITIONAL_OR_KEYWORD", "annotation": "str",
                        "default": "'days'"}]}


# --- a hostile kernel ------------------------------------------------------------------------------


def _fake_kernel(folder):
    """The grader's bridge with a fake kernel: a raw socket on which the test writes whatever it likes."""
    bridge = boundary.GraderBridge(folder)
    fake = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    fake.connect(bridge.address)
    fake.sendall((json.dumps({"agent": bridge.token}) + "\n").encode())
    bridge.wait_for_agent(10)
    return bridge, fake, fake.makefile("rb")


@pytest.fixture
def hostile(tmp_path):
    bridge, fake, reader = _fake_kernel(tmp_path)
    yield bridge, fake, reader
    bridge.close("the test is over")
    fake.close()


def _answer(fake, reader, value) -> None:
    """Read the grader's next request and answer it with `value` (raw JSON, or bytes sent as they are)."""
    request = json.loads(reader.readline())
    line = value if isinstance(value, bytes) else (json.dumps({"reply": request["call"], "value": value}) + "\n").encode()
    fake.sendall(line)


@pytest.mark.parametrize("value, says", [
    ({"$": "model", "type": "os:system", "json": "{}"}, "cannot cross"),
    ({"$": "model", "type": "subprocess:Popen", "json": "{}"}, "cannot cross"),
    ({"$": "dataclass", "type": "course_lib.host:Host", "fields": {}}, "cannot cross"),
    ({"$": "model", "type": "course_lib.servers.incidents:Note", "json": "{\"noteId\": 1}"}, "cannot rebuild"),
    ({"$": "no-such-tag"}, "unknown tag"),
    ({"$": "float", "repr": "1e999999"}, "not nan"),
    ({"$": "back", "id": 999}, "never lent"),
    ({"$": "ref", "id": "x", "kind": "function"}, "without its number"),
    ([[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],
     "nested more than"),
])
def test_data_that_may_not_cross_is_refused(hostile, value, says):
    import threading

    bridge, fake, reader = hostile
    threading.Thread(target=_answer, args=(fake, reader, value), daemon=True).start()
    with pytest.raises(boundary.BoundaryError, match=says):
        bridge.lookup("anything")


@pytest.mark.parametrize("line, says", [
    (b"not json\n", "not JSON"),
    (b"[1, 2]\n", "not an object"),
    (b'{"reply": 12345, "value": 1}\n', "a reply to nothing"),
    (b'{"neither": 1}\n', "neither a request nor a reply"),
    (b"[" * 200_000 + b"\n", "not JSON"),
])
def test_a_message_that_breaks_the_rules_closes_the_bridge_and_says_why(hostile, line, says):
    import threading

    bridge, fake, reader = hostile
    threading.Thread(target=_answer, args=(fake, reader, line), daemon=True).start()
    with pytest.raises(boundary.BridgeClosed, match=says):
        bridge.lookup("anything")
    assert says in bridge.closed


def test_an_oversized_message_is_refused_without_reading_it_all(tmp_path, monkeypatch):
    import threading

    monkeypatch.setattr(boundary, "MAX_LINE", 1000)
    bridge, fake, reader = _fake_kernel(tmp_path)
    threading.Thread(target=_answer, args=(fake, reader, {"big": "x" * 5000}), daemon=True).start()
    with pytest.raises(boundary.BridgeClosed, match="over the limit of 1,000 bytes"):
        bridge.lookup("anything")
    fake.close()


def test_the_kernel_may_ask_only_for_what_the_checker_lent_it(hostile):
    bridge, fake, reader = hostile
    secret = {"grade": "A"}
    bridge._lend(secret)  # noqa: SLF001 - lent to nobody: only numbers the kernel was given count

    def ask(op: str, **fields) -> dict:
        fake.sendall((json.dumps({"call": 7, "op": op, **fields}) + "\n").encode())
        return json.loads(reader.readline())

    assert "error" in ask("lookup", name="anything")  # the grader answers no lookups
    assert "PermissionError" in ask("call", id=1, args=[], kwargs={})["error"]["type"]  # a dict is not callable
    assert "AttributeError" in ask("getattr", id=1, name="__class__")["error"]["type"]
    assert "BoundaryError" in ask("call", id=999, args=[], kwargs={})["error"]["type"]


def test_a_broken_mcp_connection_taints_the_check(pair):
    bridge, namespace, _ = pair
    namespace["server"] = weather.build_server()
    server = bridge.lookup("server")
    assert bridge.broken is None
    original = wire.serve_streams

    async def drop(server_, read, write):
        await read.receive()  # the client's first request, then the connection is gone
        raise ConnectionError("dropped")

    wire.serve_streams = drop
    try:
        with pytest.raises(Exception):
            wire.run_sync(wire.list_tools, server)
    finally:
        wire.serve_streams = original
    assert bridge.broken == "the other side closed the connection"


def test_junk_connections_are_closed_and_a_second_agent_is_refused(pair):
    bridge, _, _ = pair
    for hello in (b"\n", b"garbage\n", json.dumps({"agent": bridge.token}).encode() + b"\n",
                  json.dumps({"session": "no-such-token"}).encode() + b"\n",
                  json.dumps({"serve": 1, "token": "wrong"}).encode() + b"\n"):
        junk = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        junk.connect(bridge.address)
        junk.sendall(hello)
        junk.settimeout(10)
        assert junk.recv(1) == b""  # closed by the grader
        junk.close()
    assert bridge.lookup.__self__ is bridge and bridge.closed is None  # the real agent still answers


def test_a_connection_flood_stops_the_listener_and_taints_the_run(pair, monkeypatch):
    monkeypatch.setattr(boundary, "MAX_CONNECTIONS", 20)
    bridge, namespace, _ = pair
    opened = []
    for _ in range(25):
        flood = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            flood.connect(bridge.address)
        except OSError:
            break
        opened.append(flood)
    deadline = time.monotonic() + 10
    while bridge.broken is None and time.monotonic() < deadline:
        time.sleep(0.05)
    for flood in opened:
        flood.close()
    assert bridge.broken == "the kernel opened more than 20 connections"


def test_a_course_context_entered_in_the_kernel_too_gives_back_its_data(pair):
    """`in_kernel`: what a course context records in the kernel (say, a watch's calls) comes back as data."""
    import logging

    bridge, namespace, _ = pair
    namespace["warn"] = lambda: logging.getLogger("mcp").warning("seen in the kernel")
    with boundary.checking(bridge):
        with boundary.in_kernel(wire.sdk_warnings) as kept:
            bridge.lookup("warn")()
    assert kept == ["seen in the kernel"]
    with boundary.in_kernel(wire.sdk_warnings) as kept:  # no check across the boundary: nothing to do
        bridge.lookup("warn")()
    assert kept == []
    with boundary.checking(bridge), pytest.raises(PermissionError, match="is not a course function"):
        with boundary.in_kernel(json.dumps, 1):
            pass


# --- issue 29: the learner's own data types, a flood of requests, one error base ---------------------------


@pytest.fixture
def learner_module(monkeypatch):
    """A module of the learner's (loaded on both sides, as it would be if the grader imported it) with a dataclass
    and a pydantic model: neither is the course's or the SDK's, so neither may be rebuilt by the grader."""
    import dataclasses
    import sys
    import types

    import pydantic

    module = types.ModuleType("learner_types")

    @dataclasses.dataclass
    class Answer:
        value: int = 1

    class Claim(pydantic.BaseModel):
        value: int = 1

    for cls in (Answer, Claim):
        cls.__module__, cls.__qualname__ = module.__name__, cls.__name__
        setattr(module, cls.__name__, cls)
    monkeypatch.setitem(sys.modules, module.__name__, module)
    return module


def test_a_data_type_of_any_other_module_crosses_by_reference_never_rebuilt(pair, learner_module):
    bridge, namespace, _ = pair
    for cls in (learner_module.Answer, learner_module.Claim):
        namespace["value"] = cls()
        found = bridge.lookup("value")
        assert isinstance(found, boundary.RemoteObject) and not isinstance(found, cls), cls


@pytest.mark.parametrize("value", [{"$": "dataclass", "type": "learner_types:Answer", "fields": {"value": 2}},
                                   {"$": "model", "type": "learner_types:Claim", "json": "{\"value\": 2}"}])
def test_a_hostile_kernel_cannot_have_the_grader_rebuild_its_own_types(hostile, learner_module, value):
    import threading

    bridge, fake, reader = hostile
    threading.Thread(target=_answer, args=(fake, reader, value), daemon=True).start()
    with pytest.raises(boundary.BoundaryError, match="cannot cross"):
        bridge.lookup("anything")


def test_a_kernel_that_floods_requests_without_reading_answers_closes_the_bridge(hostile, monkeypatch):
    """Requests received and not yet answered count; past MAX_IN_FLIGHT the grader stops reading (here the
    grader's answers are held back, as they are when the kernel never reads them and the socket fills)."""
    import threading

    bridge, fake, reader = hostile
    monkeypatch.setattr(boundary, "MAX_IN_FLIGHT", 3 << 20)
    release = threading.Event()
    monkeypatch.setattr(bridge, "handle", lambda op, message: release.wait(30))
    try:
        for number in range(1, 6):  # 5 requests of 1 MB each: over 3 MB unanswered by the fourth
            try:
                fake.sendall((json.dumps({"call": number, "op": "call", "id": 1, "pad": "x" * (1 << 20)})
                              + "\n").encode())
            except OSError:  # the grader closed the connection: what the test waits for
                break
        for _ in range(200):
            if bridge.closed:
                break
            time.sleep(0.05)
        assert bridge.closed and "without waiting for their answers" in bridge.closed
    finally:
        release.set()


def test_every_grading_error_is_a_course_error_except_what_the_learner_raised():
    from course_lib.errors import CourseError
    from course_lib.workbook import kernel

    assert issubclass(kernel.KernelDied, CourseError) and issubclass(boundary.BoundaryError, CourseError)
    assert issubclass(boundary.BridgeClosed, CourseError)
    assert not issubclass(boundary.LearnerRaised, CourseError)
    assert not issubclass(boundary.learner_exception("builtins:ValueError", "x").__class__, CourseError)


def test_a_kernel_exception_named_like_a_checkers_own_signal_is_never_rebuilt_as_one():
    """Red team 2, c01: a learner's exception whose type path is `course_lib.checks.core:_Enough` (which the
    checker wrapper reads as 'enough broken rules found') or a course CheckFailed stays the learner's exception."""
    from course_lib.checks import core
    from course_lib.errors import CheckFailed, ExerciseNotDone

    for path in ("course_lib.checks.core:_Enough", "course_lib.errors:CheckFailed",
                 "course_lib.errors:ExerciseNotDone"):
        made = boundary.learner_exception(path, "forged")
        assert isinstance(made, boundary.LearnerRaised), path
        assert not isinstance(made, (core._Enough, CheckFailed, ExerciseNotDone)), path
    assert isinstance(boundary.learner_exception("course_lib.errors:UnknownName", "x"), LookupError)


def test_a_kernel_exception_named_like_the_graders_own_error_is_never_rebuilt_as_one():
    """Red team 6, b5/b6: a learner's BridgeClosed or KernelDied had its text reported as the grader's reason."""
    from course_lib.workbook import kernel

    for path, grader_type in (("course_lib.workbook.boundary:BridgeClosed", boundary.BridgeClosed),
                              ("course_lib.workbook.kernel:KernelDied", kernel.KernelDied)):
        made = boundary.learner_exception(path, "the grading machine rebooted; this exercise counts as passed")
        assert isinstance(made, boundary.LearnerRaised) and not isinstance(made, grader_type), path


_FORWARDING = '''
import inspect, types
from course_lib import host, show
from course_lib.servers import weather
from course_lib.workbook import boundary

calls = []


class Agent:
    def forward(self, path, args, kwargs):
        calls.append([path, list(args), kwargs])
        return "from the grader"


early = weather.daily_forecast  # a reference taken before the stubs, as an import at the top of a cell
before = str(inspect.signature(weather.daily_forecast))
boundary.forward_course_functions(Agent())
copy = types.FunctionType(weather.daily_forecast.__code__, weather.daily_forecast.__globals__, "copy")
results = [early("Oslo", days=2), copy("Paris"), host.fingerprint({"a": 1})]
assert results == ["from the grader"] * 3, results
assert calls == [["course_lib.servers.weather:daily_forecast", ["Oslo"], {"days": 2}],
                 ["course_lib.servers.weather:daily_forecast", ["Paris"], {}],
                 ["course_lib.host:fingerprint", [{"a": 1}], {}]], calls
assert str(inspect.signature(weather.daily_forecast)) == before
assert "lookup_city_id(city)" in str(show.source(weather.daily_forecast))
print("ok")
'''


def test_in_a_graded_kernel_a_watched_course_function_only_forwards_its_calls_to_the_grader():
    """Red team 2, c02-c04: the 1.3 watch counted in the kernel, where a code copy made before it, a replaced
    counting helper or a wrapped agent hid the call. In a graded kernel each `FORWARDED` function is a stub that
    sends every call to the grader (which runs and counts it); a reference or a code copy forwards too. Run in a
    fresh process: the stubs replace the code of this process's course functions."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _FORWARDING], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "ok", done.stderr[-2000:]


def _ask_course(fake, number: int, path: str, *args) -> None:
    """A hostile kernel's request to run the forwarded course function `path` in the grader."""
    fake.sendall((json.dumps({"call": number, "op": "course", "path": path, "args": list(args), "kwargs": {}})
                  + "\n").encode())


def _until(condition, what: str) -> None:
    """Wait (at most 30 s, checked every 0.05 s) until `condition()` holds; fail saying `what` never happened."""
    for _ in range(600):
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"{what} never happened")


@pytest.fixture
def held_wrap(monkeypatch):
    """The grader's `host.wrap` replaced by one that waits until the test lets it go: how many calls are inside it
    at once, the most ever, and the event that lets them finish."""
    import threading

    from course_lib import host

    state = {"inside": 0, "most": 0, "calls": 0, "release": threading.Event()}
    lock = threading.Lock()

    def wrap(text, origin=None):
        with lock:
            state["inside"] += 1
            state["calls"] += 1
            state["most"] = max(state["most"], state["inside"])
        state["release"].wait(60)
        with lock:
            state["inside"] -= 1
        return len(text)

    monkeypatch.setattr(host, "wrap", wrap)
    yield state
    state["release"].set()
    _until(lambda: boundary.leftovers() == 0, "the held calls ending")


def test_a_kernels_forwarded_calls_run_one_at_a_time_and_a_large_one_is_refused_unrun(hostile, held_wrap):
    """Red team 5's D1: 16 kernel threads each asking for `host.wrap` of 3.9 MB made the grader run 16 calls at once
    (1.4 GB). One kernel's forwarded calls run one at a time (the others wait, counted in `leftovers`), and a
    request over `FORWARD_BYTES` is refused without running."""
    bridge, fake, reader = hostile
    for number in range(1, 5):
        _ask_course(fake, number, "course_lib.host:wrap", "x", None)
    _until(lambda: boundary.leftovers() == 4, "4 requests being handled")
    assert (held_wrap["inside"], held_wrap["calls"]) == (1, 1)  # one runs, three wait their turn
    held_wrap["release"].set()
    replies = {json.loads(reader.readline())["reply"] for _ in range(4)}
    assert replies == {1, 2, 3, 4} and held_wrap["most"] == 1
    _ask_course(fake, 5, "course_lib.host:wrap", "\u200b" * (boundary.FORWARD_BYTES // 3 + 1), None)
    refused = json.loads(reader.readline())
    assert refused["reply"] == 5 and f"at most {boundary.FORWARD_BYTES >> 10} kB" in refused["error"]["message"]
    assert held_wrap["calls"] == 4


def test_a_forwarded_call_past_its_time_stops_the_kernel_and_its_worker_is_not_used_again(
        hostile, held_wrap, monkeypatch):
    """A forwarded call still running after `FORWARD_SECONDS` stops the kernel (`on_overrun`) and closes the
    bridge; Python cannot stop the call, so the worker sees it left running (`grading._left_running`) and is
    discarded rather than grade the next notebook beside it."""
    from course_lib.workbook import grading

    bridge, fake, reader = hostile
    monkeypatch.setattr(boundary, "FORWARD_SECONDS", 0.2)
    monkeypatch.setattr(grading, "LEFTOVER_SECONDS", 0.1)
    stopped: list[str] = []
    bridge.on_overrun = stopped.append
    _ask_course(fake, 1, "course_lib.host:wrap", "x", None)
    _until(lambda: bridge.closed, "the bridge closing")
    assert stopped == [bridge.closed] and "a call of host.wrap" in bridge.closed and "ran longer than" in bridge.closed
    assert boundary.leftovers() == 1 and grading._left_running()
    held_wrap["release"].set()
    _until(lambda: boundary.leftovers() == 0, "the call ending")
    assert not grading._left_running()


def test_a_watch_counts_only_the_calls_its_own_kernel_caused(tmp_path):
    """Red team 5's V/V2: a grader-side watch counted every call in the worker, so a call another kernel caused
    (one left running by the notebook graded before) would read as this student's. It counts the calls of its own
    check's kernel (and, with no bridge, every call: a check in process)."""
    from course_lib.checks import core

    (tmp_path / "a").mkdir(), (tmp_path / "b").mkdir()
    other, other_fake, other_reader = _fake_kernel(tmp_path / "a")
    own, own_fake, own_reader = _fake_kernel(tmp_path / "b")
    try:
        with boundary.checking(own), core.watched_here("course_lib.host", "cap") as calls:
            _ask_course(other_fake, 1, "course_lib.host:cap", "from the other kernel")
            assert "value" in json.loads(other_reader.readline())
            assert calls == []
            _ask_course(own_fake, 1, "course_lib.host:cap", "from this check's kernel")
            assert "value" in json.loads(own_reader.readline())
            assert calls == ["host.cap"]
        from course_lib import host

        with core.watched_here("course_lib.host", "cap") as calls:
            host.cap("in process")
        assert calls == ["host.cap"]
    finally:
        for bridge, fake in ((other, other_fake), (own, own_fake)):
            bridge.close("the test is over")
            fake.close()


def test_what_a_check_lent_the_kernel_reaches_nothing_once_that_check_is_over(pair):
    """Red team 10, F1: 5.2's answer kept the store its check lent it, and 5.3's tool asked that store's
    `visible` (which 5.3 forbids on its own store). Every loan ends with its check; a later use is refused with a
    reason, and the next check's objects work as before."""
    bridge, namespace, _ = pair
    kept: list = []
    namespace["keep"] = lambda store: kept.append(store) or store.visible("ana", "INC-101").incident_id
    namespace["use_kept"] = lambda: kept[0].visible("ana", "INC-101").incident_id
    keep, use_kept = bridge.lookup("keep"), bridge.lookup("use_kept")
    bridge.begin_check()
    assert keep(incidents.Store()) == "INC-101" and use_kept() == "INC-101"  # within its check: the store works
    bridge.end_check()
    bridge.begin_check()
    with pytest.raises(boundary.LearnerRaised, match="lent to a check that has ended"):
        use_kept()
    assert keep(incidents.Store()) == "INC-101"  # this check's own store works
    bridge.end_check()
    late = bridge._reference(incidents.Store())["id"]  # noqa: SLF001 - a request of the check answered after its end
    bridge.begin_check()
    with pytest.raises(boundary.BoundaryError, match="lent to a check that has ended"):
        bridge._own(late)  # noqa: SLF001
    bridge.end_check()


class _SpyLock:
    """The bridge's lock, calling `after_release` once right after the release that follows `arm()`."""

    def __init__(self):
        import threading

        self._lock, self._armed, self.after_release = threading.Lock(), False, None

    def locked(self):
        return self._lock.locked()

    def arm(self):
        self._armed = True

    def __enter__(self):
        self._lock.acquire()

    def __exit__(self, *exc):
        self._lock.release()
        if self._armed:
            self._armed = False
            self.after_release()


def test_no_loan_lands_between_the_end_of_a_checks_loans_and_the_next_first_number(pair):
    """Red team 11, F3: `end_check` ended the loans and set the next first number in two locked sections; an object
    lent between them got a number below that first number, which no later check ended. Here a lend is injected
    at the first moment the lock is free after the loans ended: it must end with the next check like any other."""
    bridge, _, _ = pair
    spy = _SpyLock()
    bridge._lock = spy  # noqa: SLF001
    ended = bridge._end_loans  # noqa: SLF001
    lent: list = []

    def lend():
        lent.append(bridge._lend(incidents.Store()))  # noqa: SLF001 - a worker answering a request of the check

    def end_loans(first):
        ended(first)
        if spy.locked():
            spy.after_release = lend
            spy.arm()
        else:  # the lock is free right after the loans ended: that is the window
            lend()

    bridge._end_loans = end_loans  # noqa: SLF001
    bridge.begin_check()
    bridge.end_check()
    bridge._end_loans = ended  # noqa: SLF001
    assert len(lent) >= 1
    bridge.begin_check()
    for number in lent:
        with pytest.raises(boundary.BoundaryError, match="lent to a check that has ended"):
            bridge._own(number)  # noqa: SLF001
    bridge.end_check()


def test_a_request_that_began_under_an_ended_check_lends_nothing(pair):
    """Red team 11, F3: a request of the kernel's that passed `_own` while a check ran, and lends (a bound method,
    fresh on every `getattr`) only after that check ended, is refused: what it lent would belong to no check."""
    bridge, namespace, _ = pair

    class Window:
        def visible(self):
            return "seen"

        def __getattribute__(self, name):
            if name == "visible":
                bridge.end_check()  # the check ends while the request is being answered
            return object.__getattribute__(self, name)

    def grab(window):
        try:
            window.visible
        except Exception as error:  # noqa: BLE001 - the kernel sees the refusal
            return str(error)
        return "lent"

    namespace["grab"] = grab
    bridge.begin_check()
    said = bridge.lookup("grab")(Window())
    assert "began under a check that has ended" in said
    bridge.begin_check()
    assert bridge.lookup("grab")(incidents.Store()) == "lent"  # an ordinary request of a check still lends
    bridge.end_check()


def test_a_lent_dicts_type_makes_plain_dicts_and_is_named_for_the_learner(pair):
    """Red team 10, L1': 0.1's definition, lent by reference, is a dict subclass in the kernel. Its type called as a
    dict's (`type(d)(pairs)`, a normaliser that keeps each container's type) made nothing but a TypeError, and a
    learner's message showing `type(d).__name__` named the boundary's internal class. Now its type makes a plain
    dict, and its name is the one the 0.1 check explains (`LENT_DICT`)."""
    from course_lib.checks import core

    bridge, namespace, _ = pair
    def same_type(value):
        return type(value)((key, same_type(item)) for key, item in value.items()) if isinstance(value, dict) else value

    namespace["rebuild"] = lambda d: (same_type(d), type(d).__name__, type(d).__qualname__, type(d) is dict)
    token = boundary._current.set(bridge)
    try:
        handed = core.lent({"inputSchema": {"properties": {"width": {"minimum": 1}}}})
    finally:
        boundary._current.reset(token)
    bridge.begin_check()
    rebuilt, name, qualname, exact = bridge.lookup("rebuild")(handed)
    bridge.end_check()
    assert rebuilt == {"inputSchema": {"properties": {"width": {"minimum": 1}}}} and type(rebuilt) is dict
    assert name == qualname == boundary.LENT_DICT == "LentDict" and exact is False
    from course_lib.checks import l00

    said = l00._lent_explained(f"it raised TypeError: expected a dict, got {name}", again=True)
    assert "isinstance(definition, dict)" in said and "_Course" not in said
    assert l00._lent_explained("it raised KeyError: 'depth'", again=True) == "it raised KeyError: 'depth'"
