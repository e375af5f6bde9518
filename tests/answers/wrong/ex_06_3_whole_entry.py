"""Counts each tools/list entry whole, outputSchema included, though a host sends only name, description and
input schema."""

from course_lib import tokens, wire

EXPECT = "that is the total with the whole tools/list entry (outputSchema included)"


def answer(servers, encoding="o200k_base"):
    return sum(tokens.count(tool, encoding) for server in servers for tool in wire.run_sync(wire.list_tools, server))
