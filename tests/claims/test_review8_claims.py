"""Claims fixed after the eighth review (issue 28, review round 8): each test runs what its sentence describes
and, where the sentence states a figure or a name, reads it from the lesson."""

from __future__ import annotations

import json
import re
from pathlib import Path

from claims_ledger import cited_paragraphs, claim
from course_lib import wire

LESSON_06 = Path(__file__).resolve().parents[2] / "notebooks" / "06_what_tools_cost.ipynb"


@claim("text-copy-ratio-as-printed")
def test_the_text_copy_costs_about_the_stated_multiple_of_the_structured_one_in_every_printed_row():
    """The ratio the sentence states, against the ratios lesson 06 prints (nbval holds the stored output to a
    fresh run of the cell)."""
    (paragraph,) = cited_paragraphs("text-copy-ratio-as-printed")
    stated = float(re.search(r"the text copy alone about (\d+\.\d+) times the structured one", paragraph).group(1))
    cells = json.loads(LESSON_06.read_text(encoding="utf-8"))["cells"]
    printed = [line for cell in cells if cell["cell_type"] == "code" for output in cell.get("outputs", [])
               if output.get("name") == "stdout" for line in "".join(output["text"]).splitlines()
               if line.startswith("text copy / structured:")]
    assert len(printed) == 1, printed
    ratios = [float(ratio) for ratio in re.findall(r"(\d+\.\d+)", printed[0])]
    assert len(ratios) == 3 and all(abs(ratio - stated) < 0.1 for ratio in ratios), (stated, ratios)


CALLS = 60
"""Calls in a row, as fast as the client sends them: far above any per-second allowance a rate limit would set."""
PREVIEW_TOKEN = re.compile(r"pv-[\w-]{8,}")
"""A preview token is random on every call (lesson 05): the one part of an answer that may differ."""


def minimal_arguments(schema: dict) -> dict:
    """A valid value for each required argument: the first of its enum, its minimum, the first word of its
    description that fits its pattern ('such as INC-101'), or a plain value of its type and length."""
    plain = {"integer": 1, "number": 1, "boolean": False, "array": [], "object": {}}
    arguments = {}
    for name in schema.get("required", []):
        spec = schema["properties"][name]
        spec = schema.get("$defs", {}).get(spec.get("$ref", "").rpartition("/")[2], spec)
        words = [word for word in re.findall(r"[\w:-]+(?:\.[\w:-]+)*", spec.get("description", ""))
                 if re.fullmatch(spec.get("pattern", ".*"), word)]
        arguments[name] = (spec["enum"][0] if "enum" in spec else spec["minimum"] if "minimum" in spec
                           else plain[spec["type"]] if spec.get("type") in plain
                           else words[0] if "pattern" in spec and words else "x" * max(1, spec.get("minLength", 1)))
    return arguments


@claim("course-servers-do-not-rate-limit")
def test_every_course_server_answers_many_identical_calls_identically():
    """Every read-only tool of every server `course serve` can run, called CALLS times in a row with the same
    arguments (the first value its input schema allows for each required one), gives CALLS identical results.
    A rate limit, wherever it sat (a tool's body, a wrapper, the server's call path), would change the later
    ones."""
    from course_lib import servers

    (paragraph,) = cited_paragraphs("course-servers-do-not-rate-limit")
    assert paragraph.startswith("And none rate-limits tool invocations."), paragraph

    async def answers(name: str) -> dict[str, set[str]]:
        async with wire.connect(servers.build(name)) as client:
            tools = {tool.name: minimal_arguments(tool.input_schema) for tool in (await client.list_tools()).tools
                     if tool.annotations is not None and tool.annotations.read_only_hint}
            return {tool: {PREVIEW_TOKEN.sub("pv-…", json.dumps(wire.dump(await client.call_tool(tool, arguments)),
                                                                sort_keys=True))
                           for _ in range(CALLS)} for tool, arguments in tools.items()}

    checked = 0
    for name in servers.REGISTRY:
        for tool, seen in wire.run_sync(answers, name).items():
            assert len(seen) == 1, f"{name}.{tool} answered {len(seen)} ways in {CALLS} identical calls"
            checked += 1
    assert checked >= 20, checked  # most servers have a read-only tool: the test is not vacuous
