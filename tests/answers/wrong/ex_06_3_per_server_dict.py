"""Returns the tokens per server (a dict) instead of their total."""

from course_lib import cost, tokens, wire

EXPECT = "found dict"


def answer(servers, encoding="o200k_base"):
    return {index: sum(tokens.count(cost.host_sends(tool), encoding) for tool in wire.run_sync(wire.list_tools, server))
            for index, server in enumerate(servers)}
