"""Counts only the first server."""

from course_lib import cost, tokens, wire

EXPECT = "tokens"


def answer(servers, encoding="o200k_base"):
    return sum(tokens.count(cost.host_sends(tool), encoding) for tool in wire.run_sync(wire.list_tools, servers[0]))
