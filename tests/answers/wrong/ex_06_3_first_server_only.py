"""Counts only the first server."""

from course_lib import tokens, wire

EXPECT = "tokens"


def answer(servers, encoding="o200k_base"):
    return sum(tokens.count(tool, encoding) for tool in wire.run_sync(wire.list_tools, servers[0]))
