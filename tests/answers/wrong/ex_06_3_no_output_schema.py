"""Counts the definitions without their output schemas, which the host sends too."""

from course_lib import tokens, wire

EXPECT = "the total with no outputSchema"


def answer(servers, encoding="o200k_base"):
    return sum(tokens.count(tokens.definition(tool, output_schema=False), encoding)
               for server in servers for tool in wire.run_sync(wire.list_tools, server))
