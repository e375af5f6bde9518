"""Claims fixed after the eighth review (issue 28, review round 8): each test runs what its sentence describes
and, where the sentence states a figure or a name, reads it from the lesson."""

from __future__ import annotations

from mcp.server import MCPServer
from mcp.server.mcpserver import Context

from claims_ledger import cited_paragraphs, claim
from course_lib import wire


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
