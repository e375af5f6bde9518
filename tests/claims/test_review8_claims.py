"""Claims fixed after the eighth review (issue 28, review round 8): each test runs what its sentence describes
and, where the sentence states a figure or a name, reads it from the lesson."""

from __future__ import annotations

import json
import math
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
    assert len(ratios) == 3 and all(math.floor(ratio * 10) / 10 == stated for ratio in ratios), (stated, ratios)


@claim("concise-share-as-printed")
def test_the_concise_answers_share_of_the_detailed_one_is_the_printed_tables():
    """The three percentages and the range the sentence states, against the table lesson 06 prints (concise
    over detailed, per column, rounded to a whole percent): the range must hold every printed share."""
    (paragraph,) = cited_paragraphs("concise-share-as-printed")
    found = re.search(r"(\d+) % in the text copy, (\d+) % in the\s+structured one, (\d+) % for both", paragraph)
    stated = [int(share) for share in found.groups()]
    cells = json.loads(LESSON_06.read_text(encoding="utf-8"))["cells"]
    (table,) = [output["data"]["text/html"] for cell in cells if cell["cell_type"] == "code"
                for output in cell.get("outputs", []) if "all 3 messages" in "".join(output.get("data", {})
                                                                                    .get("text/html", ""))]
    rows = {row[0]: [int(n) for n in row[1:]] for row in
            (re.findall(r"<td[^>]*>([^<]*)</td>", tr) for tr in re.findall(r"<tr>(.*?)</tr>", "".join(table)))
            if row}
    shares = [round(100 * concise / detailed) for concise, detailed in zip(rows["concise"], rows["detailed"])]
    assert shares == stated, (shares, stated)
    low, high = (int(n) for n in re.search(r"costs (\d+) % to (\d+) % of the detailed one", paragraph).groups())
    assert all(low <= share <= high for share in shares), (low, high, shares)


CALLS = 60
"""Calls in a row, as fast as the client sends them: far above any per-second allowance a rate limit would set."""
HTTP_CALLS = 300
"""Calls one signed-in caller sends in a row over streamable HTTP: five times the in-process run's."""
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
def test_every_course_server_answers_many_identical_calls_identically(tmp_path):
    """Every read-only tool of every server `course serve` can run, called CALLS times in a row with the same
    arguments (the first value its input schema allows for each required one), gives CALLS identical results.
    A rate limit, wherever it sat (a tool's body, a wrapper, the server's call path), would change the later
    ones. And the deployed path: `course serve` (incident desk, bearer tokens, a SQLite store) answers
    HTTP_CALLS calls of one caller in a row, reads, notes, retried notes and forbidden reads alike, every one
    right and none refused: a limit per caller or on state-changing tools (middleware) would refuse the later
    ones."""
    import anyio
    from incident_helpers import Served, mixed_load, write_tokens

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
    with Served("--tokens", str(write_tokens(tmp_path)), "--store", str(tmp_path / "store.db")) as served:
        report = anyio.run(mixed_load, [served.url], 1, HTTP_CALLS)
    assert report["calls"] == HTTP_CALLS and report["protocol_errors"] == [] and report["wrong"] == [], report

