"""Counts each tools/list entry without its outputSchema, but with the title and annotations a host does not send
(and inputSchema under its MCP name)."""

from course_lib import tokens, wire

EXPECT = "every definition of every server"


def answer(servers, encoding="o200k_base"):
    return sum(tokens.count(tokens.definition(tool, output_schema=False), encoding)
               for server in servers for tool in wire.run_sync(wire.list_tools, server))
