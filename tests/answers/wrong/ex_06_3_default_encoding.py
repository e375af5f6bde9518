"""Always counts in the default encoding, whatever the host's model uses."""

from course_lib import cost, tokens, wire

EXPECT = "that is the total with o200k_base in place of cl100k_base)"


def answer(servers, encoding="o200k_base"):
    return sum(tokens.count(cost.host_sends(tool)) for server in servers for tool in wire.run_sync(wire.list_tools, server))
