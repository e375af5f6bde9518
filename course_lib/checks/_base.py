"""What every exercise checker shares: outcomes, building the learner's server, probing it."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from course_lib import wire


class ExerciseNotDone(AssertionError):
    """The exercise still holds its `raise NotImplementedError` stub."""


class CheckFailed(AssertionError):
    """The learner's answer ran but is not right yet; the message says what and where to look."""


def hint_pointer(exercise_id: str) -> str:
    return f'Open hints.show("{exercise_id}") for a hint.'


def fail(exercise_id: str, expected: str, found: str) -> CheckFailed:
    """A one-line failure: what was expected, what was found, which hint to open."""
    return CheckFailed(f"Exercise {exercise_id}: expected {expected}; found {found}. {hint_pointer(exercise_id)}")


def require(condition: bool, exercise_id: str, expected: str, found: str) -> None:
    """Raise `fail(...)` unless `condition` holds."""
    if not condition:
        raise fail(exercise_id, expected, found)


def passed(exercise_id: str, verified: str) -> None:
    """Print the single success line of a check cell."""
    print(f"✅ Exercise {exercise_id} passed: {verified}")


def not_done(exercise_id: str, error: NotImplementedError) -> ExerciseNotDone:
    todo = str(error).split(":", 1)[-1].strip().rstrip(".") if str(error) else "write your answer"
    return ExerciseNotDone(
        f"Exercise {exercise_id} is not done yet: {todo}. Replace `raise NotImplementedError(...)` "
        f"with your code, run that cell, then run this check again."
    )


def call_learner(exercise_id: str, fn: Any, *args: Any) -> Any:
    """Call the learner's function; a stub becomes `ExerciseNotDone`, a crash a `CheckFailed`."""
    if not callable(fn):
        raise fail(exercise_id, "a function (pass the function itself, without calling it)", f"{type(fn).__name__}")
    try:
        return fn(*args)
    except NotImplementedError as error:
        raise not_done(exercise_id, error) from None
    except Exception as error:  # the learner's code crashed: say so in one line
        name = getattr(fn, "__name__", "your function")
        raise fail(exercise_id, f"{name}() to run", f"it raised {type(error).__name__}: {error}") from None


def build_server(exercise_id: str, factory: Callable[..., Any], *args: Any) -> Any:
    """Build the learner's server with `factory(*args)` and make sure it is an MCP server."""
    from mcp.server import MCPServer

    server = call_learner(exercise_id, factory, *args)
    require(isinstance(server, MCPServer), exercise_id, "your function to return the MCPServer it built",
            f"{type(server).__name__} (did you forget `return server`?)")
    return server


def quiet(check: Callable[[Any], None]) -> Callable[[Any], None]:
    """Keep the SDK's log (e.g. a learner tool's crash traceback) out of the check cell: one line only."""

    @functools.wraps(check)
    def run(answer: Any) -> None:
        with wire.sdk_warnings():
            check(answer)

    return run


@dataclass
class Probe:
    """What a real client saw: the tool definitions (wire form) and each call's result."""

    tools: list[dict]
    results: list[dict] = field(default_factory=list)

    def tool(self, name: str) -> dict:
        return next(tool for tool in self.tools if tool["name"] == name)

    @property
    def names(self) -> list[str]:
        return [tool["name"] for tool in self.tools]


def probe(server: Any, calls: list[tuple[str, dict]] | Callable[[list[dict]], list[tuple[str, dict]]] = ()) -> Probe:
    """List the server's tools and make `calls` through one real in-process client session.

    `calls` may be a function of the listed tools, for checks that first need to find a name.
    """

    async def run() -> Probe:
        async with wire.connect(server) as client:
            tools = wire.dump(list((await client.list_tools()).tools))
            planned = calls(tools) if callable(calls) else calls
            results = [wire.dump(await client.call_tool(name, args)) for name, args in planned]
        return Probe(tools, results)

    return wire.run_sync(run)


def result_text(result: dict) -> str:
    """All text content of a wire-form result, joined."""
    return "\n".join(block.get("text", "") for block in result.get("content", []))
