"""The rule of thumb instead of a tokenizer: characters divided by four."""

from course_lib import cost, wire

EXPECT = "every definition of every server"


def answer(servers, encoding="o200k_base"):
    return sum(len(cost.serialize(cost.host_sends(tool))) // 4 for server in servers for tool in wire.run_sync(wire.list_tools, server))
