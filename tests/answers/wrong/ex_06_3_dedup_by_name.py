"""Counts a tool name only once across servers, though each server sends its own definition."""

from course_lib import cost, tokens, wire

EXPECT = "that is the total with a tool two servers both offer counted once, not once per server)"


def answer(servers, encoding="o200k_base"):
    seen = {}
    for server in servers:
        for tool in wire.run_sync(wire.list_tools, server):
            seen.setdefault(tool.name, tool)
    return sum(tokens.count(cost.host_sends(tool), encoding) for tool in seen.values())
