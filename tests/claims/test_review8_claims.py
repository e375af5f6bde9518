"""Claims fixed after the eighth review (issue 28, review round 8): each test runs what its sentence describes
and, where the sentence states a figure or a name, reads it from the lesson."""

from __future__ import annotations

import json
import re
from pathlib import Path

from mcp.server import MCPServer
from mcp.server.mcpserver import Context

from claims_ledger import cited_paragraphs, claim
from course_lib import wire

LESSON_06 = Path(__file__).resolve().parents[2] / "notebooks" / "06_what_tools_cost.ipynb"


@claim("sdk-context-not-in-input-schema")
def test_a_context_parameter_is_injected_and_never_in_the_input_schema():
    (paragraph,) = cited_paragraphs("sdk-context-not-in-input-schema")
    assert "`ctx: Context`" in paragraph and "never appears in the input schema" in paragraph
    server = MCPServer("claims", log_level="WARNING")

    @server.tool()
    def echo(ctx: Context, quantity: int = 0) -> str:
        """Say whether the SDK passed a context."""
        return f"{type(ctx).__name__} {quantity}"

    @server.tool()
    def other(quantity: int, context: Context) -> str:  # another name, another position: found by its type
        """Say whether the SDK passed a context."""
        return f"{type(context).__name__} {quantity}"

    async def listed_and_called():
        async with wire.connect(server) as client:
            tools = {tool.name: tool.input_schema for tool in (await client.list_tools()).tools}
            calls = [await client.call_tool(name, {"quantity": 3}) for name in ("echo", "other")]
            return tools, [result.content[0].text for result in calls]

    schemas, texts = wire.run_sync(listed_and_called)
    for schema in schemas.values():
        assert list(schema["properties"]) == ["quantity"], schema
        assert "ctx" not in str(schema) and "context" not in str(schema).lower(), schema
    assert schemas["other"]["required"] == ["quantity"]
    assert texts == ["Context 3", "Context 3"], "the SDK injected a Context into both"


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
