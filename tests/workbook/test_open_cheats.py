"""Cheats still open, kept so the next fix can prove itself: each test states what should happen and is marked
`xfail(strict=True)`, so it fails the suite the day the cheat stops working (then drop the mark)."""

from __future__ import annotations

import pytest

from course_lib.workbook import runner

_REFLECTED_1_2 = '''
import inspect
import typing

from mcp.server import MCPServer

from course_lib.servers import weather


def build_bounded_forecast_server():
    lesson = weather.build_server()._tool_manager._tools["get_daily_forecast"]
    signature = inspect.signature(lesson.fn, eval_str=True)

    def get_daily_forecast(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        return weather.daily_forecast(*bound.args, **bound.kwargs)

    get_daily_forecast.__signature__ = signature
    get_daily_forecast.__annotations__ = typing.get_type_hints(lesson.fn, include_extras=True)
    server = MCPServer("forecast", log_level="WARNING")
    server.add_tool(get_daily_forecast, description="Zebra quokka marmot lynx heron ibis. " + lesson.description)
    return server
'''


@pytest.mark.xfail(strict=True, raises=AssertionError, reason="open: the lesson tool's schema taken by reflection and its prose with 6 words "
                                       "added is no copy under NEAR_COPY_WORDS, and the body is the learner's")
def test_a_lesson_tools_schema_taken_by_reflection_and_relabelled_is_the_lessons():
    """F1 residual (gradefix9): a graded kernel's lesson tools have no body (`release.cut_bodies`), so a lesson
    server or a wrapped lesson tool fails; but 1.2's answer is the lesson tool's schema, and a tool of one's own
    with that schema (read from the listing-only lesson tool by `inspect.signature`), a body that calls the allowed
    `weather.daily_forecast`, and the lesson's description with 6 words added passes 1.2 and is not judged the
    lesson's. Retyping the lesson's source is the same answer; only a prose measure tells them apart."""
    from course_lib import checks
    from course_lib.checks import core

    namespace: dict = {}
    exec(_REFLECTED_1_2, namespace)
    factory = namespace["build_bounded_forecast_server"]
    checks.ex_01_2(factory)  # it passes 1.2's behaviour checks (raises if not: then this cheat is closed otherwise)
    tool = core.probe(factory()).tools[0]
    assert runner.lessons_copy(tool, "1.2")


_TELLS = '''
import json, os
from course_lib import wire
from course_lib.servers import weather
result = wire.run_sync(wire.call_tool, weather.build_server(), "get_daily_forecast", {"city": "Oslo"})
print(json.dumps({"uid": os.getuid(), "refused": result.is_error,
                  "text": result.content[0].text if result.content else ""}))
'''


@pytest.mark.xfail(strict=True, raises=AssertionError, reason="open: a graded kernel still differs from a learner's "
                                                             "in ways its code can read (its uid's range, cut bodies)")
def test_a_graded_process_cannot_tell_it_is_graded(tmp_path):
    """Red team rtgrade9 F1 (h2, h4): a 6.2 answer that orders its tools right only where it detects the grader
    passes, since every process the check starts is a graded one. The host name no longer tells
    (tests/workbook/test_sandbox.py), and 6.2's fresh processes get a student release's course_lib, so a cut lesson
    tool tells nothing there (h4 fails: test_cheating's RED_TEAM_NINE). Still open: the uid (a fresh one from
    `sandbox.UIDS`, far above a login user's: h2 passes 6.2) in every confined process, and in the kernel its lesson
    tools without a body (`release.cut_bodies`). Neither is cheap to hide: the uid must be one no user of the machine
    has (the grader kills what is left of it), and the cut bodies are what keeps lesson servers from answering
    exercises."""
    import json
    import os
    import subprocess
    import sys

    from course_lib.workbook import release, sandbox

    if not sandbox.available().confined or os.geteuid() != 0:
        pytest.skip("the tells are those of a graded kernel under bubblewrap, run by a root grader")
    package = tmp_path / "kernel" / "course_lib"
    release.copy_package(package, kernel=True)
    run = tmp_path / "run"
    run.mkdir()
    with sandbox.kernels_package(package):
        process = sandbox.Confinement(run).popen([sys.executable, "-c", _TELLS], stdout=subprocess.PIPE,
                                                 stderr=subprocess.PIPE)
    out, err = process.communicate(timeout=120)
    found = json.loads(out.decode().strip().splitlines()[-1])
    tells = []
    if found["uid"] in sandbox.UIDS:
        tells.append(f"uid {found['uid']} is in {sandbox.UIDS}")
    if found["refused"]:
        tells.append(found["text"])
    assert tells == [], tells
