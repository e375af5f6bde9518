"""Returns -1 ("nothing to measure") for an empty list of servers."""

from course_lib import cost, tokens, wire

EXPECT = "0 for an empty list of servers"


def answer(servers, encoding="o200k_base"):
    if not servers:
        return -1
    return sum(tokens.count(cost.host_sends(tool), encoding) for server in servers for tool in wire.run_sync(wire.list_tools, server))
