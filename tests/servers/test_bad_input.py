"""Every lesson tool survives 1,000 generated invalid calls: no hidden crash, no leaked internals."""

from __future__ import annotations

import math
import random
import re

import pytest

from course_lib import review, servers, wire

CALLS_PER_TOOL = 1000
_ECHOED_INPUT = re.compile(r"input_value=.*?, input_type=\w+")

JUNK = [None, True, -1, 0, 10**12, -(10**12), 3.5, math.inf, -math.inf, math.nan, "", " ", "\x00", "x" * 5000,
        "名前", "🙂" * 50, "1e309", "[1, 2]", '{"a": 1}', [], [1, "a"], {}, {"nested": {"deeper": [None]}}]


def invalid_arguments(schema: dict, rng: random.Random) -> dict:
    """A random argument dict: wrong types, out-of-range values, missing or unknown keys."""
    properties = list(schema.get("properties", {}))
    arguments = {name: rng.choice(JUNK) for name in properties if rng.random() < 0.7}
    if rng.random() < 0.2:
        arguments[rng.choice(["extra", "_meta", "__class__", "q" * 200])] = rng.choice(JUNK)
    return arguments


def survey(server) -> list[tuple[str, dict, dict]]:
    """Call every tool CALLS_PER_TOOL times through one client; return (tool, arguments, result)."""

    async def run():
        seen = []
        async with wire.connect(server) as client:
            for tool in (await client.list_tools()).tools:
                rng = random.Random(f"{tool.name}-seed")
                for _ in range(CALLS_PER_TOOL):
                    arguments = invalid_arguments(tool.input_schema, rng)
                    seen.append((tool.name, arguments, wire.dump(await client.call_tool(tool.name, arguments))))
        return seen

    return wire.run_sync(run)


@pytest.mark.parametrize("name", sorted(servers.REGISTRY))
def test_lesson_tools_survive_generated_invalid_arguments(name):
    seen = survey(servers.build(name))
    assert len(seen) >= CALLS_PER_TOOL
    for tool, arguments, result in seen:
        text = "\n".join(block.get("text", "") for block in result.get("content", []))
        if result.get("isError"):
            assert text != f"Error executing tool {tool}", f"{tool} crashed (hidden exception) on {arguments!r:.200}"
            assert review.leaks(_ECHOED_INPUT.sub("", text)) == [], f"{tool} leaked internals: {text[:300]}"
